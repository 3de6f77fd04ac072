import { Form } from 'react-router'
import { CHOSEN_CODE_GONE, chosenCodeStatus, type ChosenCode } from '#app/domain/admin/chosen-code.ts'
import { cardClass } from '#app/ui/card.tsx'
import { StatusButton } from '#app/ui/forms.tsx'
import { useIntentPending } from '#app/utils/use-is-pending.ts'
import { Section } from './section.tsx'

/** The owner's preview of a code, in its own colours and shape. */
export const codePreviewSrc = (codeId: number) => `/api/admin/qr-codes/${codeId}/image`

/** Whether the owner can assign the chosen code to its order now. */
export const canAssignChosen = (code: ChosenCode | null): code is ChosenCode => Boolean(code && !code.assigned && !code.problem)

/** The order's chosen code: preview, label, scan link, where it stands, and a one-click assign while it can go. */
export function ChosenCodeCard({ code, codesChangeable }: { code: ChosenCode | null; codesChangeable: boolean }) {
	const pending = useIntentPending('assign')
	return (
		<Section id="chosen-code-title" title="Shopper’s chosen code" className={cardClass('space-y-2 p-4')} titleClassName="text-lg font-bold">
			{code ? (
				<div className="flex flex-wrap items-start gap-4">
					{code.scanUrl ? (
						<img
							src={codePreviewSrc(code.id)}
							alt={`${code.label}, chosen for this order`}
							width={96}
							height={96}
							className="rounded border border-gray-200"
						/>
					) : null}
					<div className="min-w-48 flex-1 space-y-1">
						<p className="font-semibold">{code.label}</p>
						{code.scanUrl ? <p className="font-mono text-sm break-all">{code.scanUrl}</p> : null}
						<p className={code.problem || !code.ownedByShopper ? 'font-semibold text-red-700' : 'text-gray-800'}>
							{chosenCodeStatus(code)}
						</p>
						{codesChangeable && canAssignChosen(code) ? (
							<Form method="post">
								<input type="hidden" name="intent" value="assign" />
								<input type="hidden" name="qrCodeIds" value={code.id} />
								<StatusButton type="submit" pending={pending} pendingLabel="Assigning…" className="min-h-10 px-3 py-1.5 text-sm">
									Assign {code.label}
								</StatusButton>
							</Form>
						) : null}
					</div>
				</div>
			) : (
				<p className="text-gray-800">{CHOSEN_CODE_GONE}</p>
			)}
		</Section>
	)
}
