import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useSearchParams } from 'react-router'
import { LoginSchema } from '#app/domain/accounts/schemas.ts'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { TextField } from '#app/ui/text-field.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { HoneypotField } from '#app/ui/honeypot-field.tsx'

export function LoginForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
	const [searchParams] = useSearchParams()
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'login',
		lastResult,
		constraint: getZodConstraint(LoginSchema),
		defaultValue: { redirectTo: searchParams.get('redirectTo') ?? '' },
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className="space-y-4">
			<HoneypotField id="login-website" />
			<input {...getInputProps(fields.redirectTo, { type: 'hidden' })} />
			<TextField field={fields.email} label="Email" type="email" autoComplete="email" autoFocus />
			<TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" className="w-full" pending={isPending} pendingLabel="Authenticating...">
				Sign In
			</StatusButton>
		</Form>
	)
}
