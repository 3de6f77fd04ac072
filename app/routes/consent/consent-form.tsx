import { useEffect, useRef, useState } from 'react'
import { Form } from 'react-router'
import { CONSENT_INTENTS, type ConsentType } from '#app/domain/consent/consents.ts'
import { useFocusOnError } from '#app/ui/focus-fields.ts'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { cardClass } from '#app/ui/card.tsx'

type ShownForm = { consentType: ConsentType; version: number; title: string; body: string }

const ERROR_ID = 'consent-error'
const HINT_ID = 'consent-hint'

/**
 * Each missing form with its text and a tick box. Continue is always usable: sent with a box unticked, the form comes
 * back with the message, the unticked boxes marked invalid and focus on the first of them.
 */
export function ConsentForm({
	forms,
	redirectTo,
	error,
	ticked: initial = [],
}: {
	forms: ShownForm[]
	redirectTo: string
	error?: string
	ticked?: string[]
}) {
	const pending = useIsPending()
	const [ticked, setTicked] = useState(() => new Set(initial))
	const formRef = useRef<HTMLFormElement>(null)
	// Boxes ticked before the page's script ran count too.
	useEffect(() => {
		const boxes = formRef.current?.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked') ?? []
		setTicked(new Set(Array.from(boxes, (box) => box.name)))
	}, [])
	const firstInvalid = error ? forms.find((f) => !ticked.has(f.consentType))?.consentType : undefined
	const focusFirst = useFocusOnError(Boolean(firstInvalid))
	const toggle = (type: string, on: boolean) =>
		setTicked((current) => {
			const next = new Set(current)
			if (on) next.add(type)
			else next.delete(type)
			return next
		})
	return (
		<Form method="post" ref={formRef} className="space-y-6">
			<input type="hidden" name="redirectTo" value={redirectTo} />
			<OfflineMessage intent={CONSENT_INTENTS.agree} title="Error" description="Failed to record consent. Please try again." />
			{forms.map((form) => {
				const id = `consent-${form.consentType}`
				const invalid = Boolean(error) && !ticked.has(form.consentType)
				return (
					<section key={form.consentType} aria-labelledby={`${id}-title`} className={cardClass('p-5')}>
						<h2 id={`${id}-title`} className="text-lg font-bold text-gray-900">
							{form.title}
						</h2>
						<div
							tabIndex={0}
							role="region"
							aria-label={`${form.title} text`}
							className="mt-3 max-h-64 space-y-3 overflow-y-auto rounded-md border border-gray-200 bg-gray-50 p-4 text-gray-800"
						>
							{form.body.split(/\n{2,}/).map((paragraph) => (
								<p key={paragraph}>{paragraph}</p>
							))}
						</div>
						<div className="mt-4 flex items-start gap-3">
							<input
								type="checkbox"
								id={id}
								name={form.consentType}
								value={String(form.version)}
								defaultChecked={initial.includes(form.consentType)}
								onChange={(e) => toggle(form.consentType, e.currentTarget.checked)}
								aria-invalid={invalid || undefined}
								aria-describedby={invalid ? ERROR_ID : undefined}
								autoFocus={(focusFirst && form.consentType === firstInvalid) || undefined}
								className="mt-1 size-5 shrink-0 accent-red-700"
							/>
							<label htmlFor={id} className="text-gray-900">
								I have read and agree to the {form.title}
							</label>
						</div>
					</section>
				)
			})}
			{/* Announced once, by the toast: the message describes each unticked box, and the first of them takes the focus. */}
			<ErrorList id={ERROR_ID} errors={error ? [error] : undefined} />
			<div className="flex flex-wrap items-center gap-4">
				<StatusButton
					type="submit"
					name="intent"
					value={CONSENT_INTENTS.agree}
					aria-describedby={HINT_ID}
					pending={pending}
					pendingLabel="Recording..."
				>
					Continue
				</StatusButton>
				<p id={HINT_ID} className="text-sm text-gray-700">
					Tick every box to continue.
				</p>
			</div>
		</Form>
	)
}
