import { useEffect, useRef, useState } from 'react'
import { Form, useFetcher } from 'react-router'
import { customTextStatus, QR_COLORS, TEXT_COLORS } from '#app/domain/qr/palette.ts'
import { CheckboxField, ErrorList, SelectField, StatusButton, buttonClass } from '#app/ui/forms.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useIntentPending } from '#app/utils/use-is-pending.ts'
import type { QrCodesData } from './qr-codes.server.ts'
import { CustomTextField } from '#app/features/custom-text/custom-text-field.tsx'

const PREVIEW_DEBOUNCE_MS = 300

type Look = { color: string; textColor: string; circular: boolean; customText?: string; transparentBackground?: boolean }

/**
 * The look of a code. Without JavaScript, Preview is a GET back to the page, which renders the result; with it the
 * preview follows every change after 300 ms.
 */
export function Customizer({
	look,
	previewSvg,
	previewError,
	hidden,
	submit,
	errors,
}: {
	look: Look | null
	previewSvg: string | null
	previewError: string | null
	hidden: Record<string, string>
	submit: { intent: string; label: string }
	/** A refused save's messages by field (those of the form as a whole under ''). */
	errors?: Record<string, string[] | null | undefined>
}) {
	const hydrated = useHydrated()
	const fetcher = useFetcher<QrCodesData>()
	const formRef = useRef<HTMLFormElement>(null)
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	const [text, setText] = useState(look?.customText ?? '')
	const status = customTextStatus(text)
	const pending = useIntentPending(submit.intent)
	useEffect(() => () => clearTimeout(timer.current), [])

	const refresh = () => {
		clearTimeout(timer.current)
		timer.current = setTimeout(() => {
			if (!formRef.current) return
			const params = new URLSearchParams(new FormData(formRef.current) as unknown as Record<string, string>)
			params.delete('intent')
			params.set('preview', '1')
			fetcher.load(`${window.location.pathname}?${params}`)
		}, PREVIEW_DEBOUNCE_MS)
	}
	const shownSvg = fetcher.data?.previewSvg ?? previewSvg
	const shownError = fetcher.data ? fetcher.data.previewError : previewError

	return (
		<div className="grid grid-cols-1 gap-6 md:grid-cols-[minmax(0,1fr)_auto]">
			<Form method="post" ref={formRef} onChange={refresh} preventScrollReset className="space-y-4">
				{Object.entries(hidden).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
					<SelectField
						label="QR colour"
						selectProps={{ name: 'color', defaultValue: look?.color ?? '#DC2626' }}
						options={QR_COLORS.map((c) => ({ value: c.hex, label: c.name }))}
					/>
					<SelectField
						label="Text colour"
						selectProps={{ name: 'textColor', defaultValue: look?.textColor ?? '#000000' }}
						options={TEXT_COLORS.map((c) => ({ value: c.hex, label: c.name }))}
					/>
				</div>
				<CustomTextField
					defaultValue={look?.customText ?? ''}
					errors={errors?.customText ?? undefined}
					status={status}
					hydrated={hydrated}
					onText={setText}
				/>
				<CheckboxField label="Circular QR code" inputProps={{ name: 'circular', defaultChecked: look?.circular ?? true }} />
				<CheckboxField
					label="Transparent background (for downloads)"
					inputProps={{ name: 'transparentBackground', defaultChecked: look?.transparentBackground ?? false }}
				/>
				{/* A custom text that does not fit is answered beside it when saved; the button never waits for it. */}
				<ErrorList
					errors={Object.entries(errors ?? {}).flatMap(([name, messages]) => (name === 'customText' ? [] : (messages ?? [])))}
					alert
				/>
				<div className="flex flex-wrap gap-2">
					<StatusButton intent={submit.intent} pending={pending} pendingLabel="Saving...">
						{submit.label}
					</StatusButton>
					{hydrated ? null : (
						<button type="submit" formMethod="get" name="preview" value="1" className={buttonClass('secondary')}>
							Preview
						</button>
					)}
				</div>
			</Form>
			<figure className="flex flex-col items-center gap-2">
				<div
					className="flex size-72 items-center justify-center rounded-lg border border-gray-300 bg-[repeating-conic-gradient(#f3f4f6_0_25%,#fff_0_50%)] bg-[length:16px_16px] p-2"
					aria-live="polite"
				>
					{shownSvg ? (
						<div
							className="size-full [&>svg]:size-full"
							role="img"
							aria-label="QR code preview"
							dangerouslySetInnerHTML={{ __html: shownSvg }}
						/>
					) : (
						<span className="text-gray-600">No preview</span>
					)}
				</div>
				<figcaption className="text-sm text-gray-700">
					{shownError ? <span className="text-red-700">{shownError}</span> : 'Preview'}
				</figcaption>
			</figure>
		</div>
	)
}
