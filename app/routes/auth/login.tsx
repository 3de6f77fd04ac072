import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { readPageForm, refusedAttempt } from '#app/utils/request.server.ts'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useSearchParams } from 'react-router'
import { verifyLogin } from '#app/domain/accounts/accounts.server.ts'
import { LoginSchema } from '#app/domain/accounts/schemas.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { createUserSession } from '#app/routes/auth/sign-in.server.ts'
import { getUserId } from '#app/middleware/user.server.ts'
import { env } from '#app/utils/env.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { TextField } from '#app/ui/text-field.tsx'
import type { Route } from './+types/login'

export async function loader({ request, context }: Route.LoaderArgs) {
	const redirectTo = new URL(request.url).searchParams.get('redirectTo')
	if (env.oidcEnabled) throw redirect(`/api/login${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ''}`)
	if (await getUserId({ request, context })) throw redirect(safeRedirect(redirectTo, '/dashboard'))
	return null
}

export async function action({ request, context }: Route.ActionArgs) {
	if (env.oidcEnabled) throw redirect('/api/login')
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: LoginSchema })
	if (submission.status !== 'success')
		return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
	const refuse = (message: string, status: number, headers?: HeadersInit) =>
		data({ result: submission.reply({ formErrors: [message], hideFields: ['password'] }) }, { status, headers })
	const limited = await refusedAttempt('signin', request, context)
	if (limited) return refuse(TOO_MANY_ATTEMPTS, 429, limited)
	const login = await verifyLogin(submission.value.email, submission.value.password)
	if (!login.ok) return refuse(login.message, login.status)
	return createUserSession(request, login.user.id, submission.value.redirectTo)
}

export default function Login({ actionData }: Route.ComponentProps) {
	const [searchParams] = useSearchParams()
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'login',
		lastResult: actionData?.result,
		constraint: getZodConstraint(LoginSchema),
		defaultValue: { redirectTo: searchParams.get('redirectTo') ?? '' },
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
	})
	return (
		<AuthShell title="Sign in" subtitle="Secure access to your medical emergency platform">
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<input {...getInputProps(fields.redirectTo, { type: 'hidden' })} />
				<TextField field={fields.email} label="Email" type="email" autoComplete="email" autoFocus />
				<TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
				<ErrorList id={form.errorId} errors={form.errors} />
				<StatusButton type="submit" className="w-full" pending={isPending} pendingLabel="Authenticating...">
					Sign In
				</StatusButton>
			</Form>
			<p className="mt-6 text-center text-gray-700">
				New here?{' '}
				<Link to="/signup" className="font-semibold text-blue-800 underline">
					Create an account
				</Link>
			</p>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Sign in · Hit Me Helpers' }]
