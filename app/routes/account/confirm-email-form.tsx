import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { ConfirmEmailChangeSchema } from '#app/domain/accounts/schemas.ts'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { CheckField } from '#app/ui/text-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'

export function ConfirmEmailForm({ token, lastResult }: { token: string; lastResult?: SubmissionResult<string[]> }) {
	const pending = useIsPending()
	const [form, fields] = useSchemaForm(ConfirmEmailChangeSchema, { id: 'confirm-email', lastResult, shouldRevalidate: 'onSubmit' })
	return (
		<Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
			<input type="hidden" name="token" value={token} />
			<CheckField
				field={fields.endOtherSessions}
				label="Also sign out everywhere else (every other browser and device signed in to this account)"
			/>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" className="w-full" pending={pending} pendingLabel="Confirming...">
				Confirm New Email
			</StatusButton>
		</Form>
	)
}
