import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { SignupSchema } from '#app/domain/accounts/schemas.ts'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { CheckField, TextField } from '#app/ui/text-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { PasswordMeter } from './password-meter.tsx'
import { HoneypotField } from '#app/ui/honeypot-field.tsx'

export function SignupForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
	const isPending = useIsPending()
	const [form, fields] = useSchemaForm(SignupSchema, { id: 'signup', lastResult })
	return (
		<Form method="post" {...getFormProps(form)} className="space-y-4">
			<HoneypotField id="signup-website" />
			<OfflineMessage title="Signup Error" description="Unable to create account. Please try again." />
			<TextField field={fields.username} label="Username" autoComplete="username" />
			<TextField field={fields.email} label="Email" type="email" autoComplete="email" />
			<PasswordMeter
				inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password' }}
				errors={fields.password.errors}
			/>
			<CheckField
				field={fields.consent}
				label="I agree to the Terms of Service and understand that Hit Me Helpers is not a healthcare provider and is not covered by HIPAA. In an emergency, call 911."
			/>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" className="w-full" pending={isPending} pendingLabel="Creating Account...">
				Create Account
			</StatusButton>
		</Form>
	)
}
