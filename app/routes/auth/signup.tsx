import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { readPageForm, refusedAttempt } from '#app/utils/request.server.ts'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { createAccount, signupNotice } from '#app/domain/accounts/accounts.server.ts'
import { SignupSchema } from '#app/domain/accounts/schemas.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { CheckboxField, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import type { Route } from './+types/signup'
import { PasswordMeter } from './password-meter.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { TextField } from '#app/ui/text-field.tsx'

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: SignupSchema })
	if (submission.status !== 'success')
		return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
	const limited = await refusedAttempt('signup', request, context)
	if (limited) return data({ result: submission.reply({ formErrors: [TOO_MANY_ATTEMPTS], hideFields: ['password'] }) }, { status: 429, headers: limited })
	const created = await createAccount(submission.value)
	if (!created.ok)
		return data({ result: submission.reply({ fieldErrors: created.errors, hideFields: ['password'] }) }, { status: 400 })
	return redirectWithToast('/api/login', { type: 'success', title: 'Signup Information Recorded', description: signupNotice() })
}

const securityClaims = ['End-to-end encryption', 'Secure authentication', 'HTTPS only', 'No data sharing with third parties']

export default function Signup({ actionData }: Route.ComponentProps) {
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'signup',
		lastResult: actionData?.result,
		constraint: getZodConstraint(SignupSchema),
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: SignupSchema }),
	})
	return (
		<AuthShell title="Create your account" subtitle="Free, donation-based emergency medical information">
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<OfflineMessage title="Signup Error" description="Unable to create account. Please try again." />
				<TextField field={fields.username} label="Username" autoComplete="username" />
				<TextField field={fields.email} label="Email" type="email" autoComplete="email" />
				<PasswordMeter
					inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password' }}
					errors={fields.password.errors}
				/>
				<CheckboxField
					label="I agree to the Terms of Service and understand that Hit Me Helpers is not a healthcare provider and is not covered by HIPAA. In an emergency, call 911."
					inputProps={getInputProps(fields.consent, { type: 'checkbox' })}
					errors={fields.consent.errors}
				/>
				<ErrorList id={form.errorId} errors={form.errors} />
				<StatusButton type="submit" className="w-full" pending={isPending} pendingLabel="Creating Account...">
					Create Account
				</StatusButton>
			</Form>
			<p className="mt-4 text-center text-gray-700">
				Already have an account?{' '}
				<a href="/api/login" className="font-semibold text-blue-800 underline">
					Sign In
				</a>
			</p>
			<ul className="mt-6 grid grid-cols-2 gap-2 text-sm text-gray-700" aria-label="Security">
				{securityClaims.map((claim) => (
					<li key={claim} className="flex gap-1">
						<span aria-hidden="true" className="text-green-700">
							✓
						</span>
						{claim}
					</li>
				))}
			</ul>
			<p className="mt-4 text-center text-sm">
				<Link to="/" className="text-blue-800 underline">
					Back to the home page
				</Link>
			</p>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Create account · Hit Me Helpers' }]
