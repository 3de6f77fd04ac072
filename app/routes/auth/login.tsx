import { DomainError } from '#app/utils/errors.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { limitPageAttempt, readPageForm } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import { INVALID_LOGIN, verifyLogin } from '#app/domain/accounts/accounts.server.ts'
import { LoginSchema } from '#app/domain/accounts/schemas.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { createUserSession } from '#app/routes/auth/sign-in.server.ts'
import { getUserId } from '#app/middleware/user.server.ts'
import { env } from '#app/utils/env.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { guessSource, trustDevice } from '#app/utils/trusted-device.server.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/login'
import { filledHoneypot } from '#app/utils/honeypot.ts'
import { pageMeta } from '#app/utils/meta.ts'

const LoginForm = lazyComponent('login-form', () => import('./login-form.tsx').then((module) => module.LoginForm))

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
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
	const { email, password, redirectTo } = submission.value
	let userId: string
	try {
		// A bot gets the answer to a wrong password; no password is checked.
		if (filledHoneypot(formData)) throw new DomainError(400, INVALID_LOGIN)
		await limitPageAttempt('signin', request, context)
		userId = (await verifyLogin(email, password, await guessSource({ request, context }, 'signin', email))).id
	} catch (error) {
		// The e-mail stays as typed; the password is never sent back.
		return replyError({ request, context }, submission, error, { hideFields: ['password'] })
	}
	const trusted = { 'set-cookie': await trustDevice(request, 'signin', email) }
	return createUserSession({ request, context }, userId, redirectTo, { headers: trusted })
}

export default function Login({ actionData }: Route.ComponentProps) {
	return (
		<AuthShell title="Sign in" subtitle="Secure access to your medical emergency platform">
			<LoginForm lastResult={actionData?.result} />
			<p className="mt-6 text-center text-gray-700">
				New here?{' '}
				<Link to="/signup" className="font-semibold text-blue-800 underline">
					Create an account
				</Link>
			</p>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Sign in')
