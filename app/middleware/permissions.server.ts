import { redirect } from 'react-router'
import { loginPath } from '#app/utils/auth.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { getUser, getUserId } from './user.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'

/** A JSON call or a form that needs someone signed in: otherwise on to sign-in, and back afterwards. */
export async function requireUserId(args: RequestArgs) {
	const userId = await getUserId(args)
	if (userId) return userId
	throw redirect(loginPath(args.request))
}

export async function requireUser(args: RequestArgs) {
	const user = await getUser(args)
	if (user) return user
	throw redirect(loginPath(args.request))
}

export const AUTHENTICATION_REQUIRED = {
	type: 'error',
	title: 'Authentication Required',
	description: 'Please login to access medical tracker features.',
} as const

/**
 * The dashboard's pages: a visitor who is not signed in is told so and sent to /auth; a PIN validated before
 * sign-in and not yet claimed is claimed first.
 */
export async function requireDashboardUser(args: RequestArgs) {
	const user = await getUser(args)
	if (!user) throw await redirectWithToast('/auth', AUTHENTICATION_REQUIRED)
	const session = await getSession(args)
	const pendingPin = session.get('pendingPin')
	if (pendingPin) {
		session.unset('pendingPin')
		throw redirect(`/claim/${encodeURIComponent(pendingPin)}`, { headers: { 'set-cookie': await sessionStorage.commitSession(session) } })
	}
	return user
}

export { OWNER_ONLY } from '#app/domain/admin/messages.ts'
