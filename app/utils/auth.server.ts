import { getSession, sessionStorage } from './session.server.ts'
import { pageUrl } from './http.ts'

/** Sign-in, and back to this page afterwards. */
export function loginPath(request: Request) {
	const { pathname, search } = pageUrl(request)
	return `/api/login?${new URLSearchParams({ redirectTo: pathname + search })}`
}

export async function destroyUserSession(request: Request) {
	const session = await getSession(request)
	return sessionStorage.destroySession(session)
}

/** After a claim the pending PIN is spent; returns the cookie to send, or null when there was none. */
export async function clearPendingPin(request: Request) {
	const session = await getSession(request)
	if (!session.has('pendingPin')) return null
	session.unset('pendingPin')
	return sessionStorage.commitSession(session)
}
