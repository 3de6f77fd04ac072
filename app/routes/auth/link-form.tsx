import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { LinkAccountSchema } from '#app/domain/accounts/schemas.ts'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { TextField } from '#app/ui/text-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'

export function LinkForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
	const isPending = useIsPending()
	const [form, fields] = useSchemaForm(LinkAccountSchema, { id: 'link-account', lastResult })
	return (
		<Form method="post" {...getFormProps(form)} className="space-y-4">
			<TextField field={fields.password} label="Password" type="password" autoComplete="current-password" autoFocus />
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" className="w-full" pending={isPending} pendingLabel="Linking...">
				Link and Sign In
			</StatusButton>
		</Form>
	)
}
