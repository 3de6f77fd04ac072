import { redirect } from 'react-router'
import { authenticateWithOidc, IdentityError } from '#app/adapters/identity.server.ts'
import { findOrCreateOidcUser } from '#app/domain/accounts/accounts.server.ts'
import { firstVisitDay } from '#app/domain/analytics/collect.server.ts'
import { createUserSession } from '#app/routes/auth/sign-in.server.ts'
import { env } from '#app/utils/env.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/callback'
import { log } from '#app/utils/log.server.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	if (!env.oidcEnabled) throw redirect('/login')
	let signIn: Awaited<ReturnType<typeof findOrCreateOidcUser>>
	let identity: Awaited<ReturnType<typeof authenticateWithOidc>>
	try {
		identity = await authenticateWithOidc(request)
		signIn = await findOrCreateOidcUser(identity, await firstVisitDay(request.headers.get('cookie')))
	} catch (error) {
		if (error instanceof Response) throw error
		const description = error instanceof IdentityError ? error.message : 'Sign-in did not complete. Please try again.'
		if (!(error instanceof IdentityError)) log.error({ err: error }, 'sign-in with the identity provider failed')
		return redirectWithToast('/auth?auth=failed', { type: 'error', title: 'Sign-in failed', description })
	}
	if (signIn.kind === 'user') return createUserSession({ request, context }, signIn.user.id)
	// An account with this e-mail exists but is not linked silently: its password proves it is the person's (/auth/link).
	const session = await getSession({ request, context })
	const { kind: _kind, email: _email, ...flags } = signIn
	session.set('pendingLink', { ...identity, ...flags, at: Date.now() })
	return redirect('/auth/link', { headers: { 'set-cookie': await sessionStorage.commitSession(session) } })
}
