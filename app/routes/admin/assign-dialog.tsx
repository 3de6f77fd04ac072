import type { SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import type { ChosenCode } from '#app/domain/admin/chosen-code.ts'
import { Field, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { useIntentPending } from '#app/utils/use-is-pending.ts'
import { canAssignChosen } from './chosen-code-card.tsx'

/** The id of the order page's Assign QR Codes link, which the dialog gives focus back to. */
export const ASSIGN_OPENER = 'assign-codes'

/** The order page's assign dialog (?dialog=assign): a plain form, the shopper's chosen code filled in while it can go. */
export function AssignDialog({
	closeHref,
	refused,
	chosen,
}: {
	closeHref: string
	/** The refused assignment: its message beside the field, and what was typed. */
	refused: SubmissionResult<string[]> | null
	chosen: ChosenCode | null
}) {
	const pending = useIntentPending('assign')
	// The shopper's own code is offered first: filled in, ready to assign or to add others to.
	const offered = canAssignChosen(chosen) ? chosen : null
	const typed = refused?.initialValue?.qrCodeIds
	const typedCodes = typeof typed === 'string' ? typed : undefined
	return (
		<Modal title="Assign QR codes" closeHref={closeHref} start="field" opener={ASSIGN_OPENER} showsErrors={Boolean(refused)}>
			<Form method="post" action={closeHref} className="space-y-4">
				<input type="hidden" name="intent" value="assign" />
				<Field
					label="QR code IDs"
					hint={
						offered
							? `The shopper chose ${offered.label}: its number is filled in. Add unclaimed code numbers after a comma: ${offered.id}, 13`
							: 'Unclaimed code numbers, separated by commas: 12, 13'
					}
					errors={refused?.error?.qrCodeIds ?? undefined}
					inputProps={{
						name: 'qrCodeIds',
						required: true,
						maxLength: 20000,
						defaultValue: typedCodes ?? (offered ? String(offered.id) : undefined),
					}}
				/>
				<StatusButton type="submit" pending={pending} pendingLabel="Assigning…" className="w-full">
					Assign
				</StatusButton>
			</Form>
		</Modal>
	)
}
