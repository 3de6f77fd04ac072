import { getSession, sessionStorage } from './session.server.ts'
import { pageUrl } from './http.ts'
import type { RequestArgs } from './request.server.ts'

/** Sign-in, and back to this page afterwards. */
export function loginPath(request: Request) {
	const { pathname, search } = pageUrl(request)
	return `/api/login?${new URLSearchParams({ redirectTo: pathname + search })}`
}

export async function destroyUserSession(args: RequestArgs) {
	const session = await getSession(args)
	return sessionStorage.destroySession(session)
}

/** After a claim the pending PIN is spent; returns the cookie to send, or null when there was none. */
export async function clearPendingPin(args: RequestArgs) {
	const session = await getSession(args)
	if (!session.has('pendingPin')) return null
	session.unset('pendingPin')
	return sessionStorage.commitSession(session)
}
