import { redirect } from 'react-router'
import { getPublicUser } from '#app/domain/accounts/accounts.server.ts'
import { claimToast, claimValidatedPin } from '#app/domain/claims/claims.server.ts'
import { mergeGuestCart } from '#app/domain/shop/cart.server.ts'
import { createToastHeaders, redirectWithToast } from './toast.server.ts'
import { getSession, sessionStorage, type SessionData } from './session.server.ts'
import { combineHeaders, pageUrl, safeRedirect } from './http.ts'

export async function getUserId(request: Request) {
	const session = await getSession(request)
	return session.get('userId') ?? null
}

export async function getUser(request: Request) {
	const userId = await getUserId(request)
	return userId ? getPublicUser(userId) : null
}

export function loginPath(request: Request) {
	const { pathname, search } = pageUrl(request)
	return `/api/login?${new URLSearchParams({ redirectTo: pathname + search })}`
}

export async function requireUserId(request: Request) {
	const userId = await getUserId(request)
	if (userId) return userId
	throw redirect(loginPath(request))
}

export async function requireUser(request: Request) {
	const user = await getUser(request)
	if (user) return user
	throw redirect(loginPath(request))
}

/**
 * The dashboard's pages: a visitor who is not signed in is told so and sent to /auth; a PIN validated before
 * sign-in and not yet claimed is claimed first.
 */
export async function requireDashboardUser(request: Request) {
	const session = await getSession(request)
	const userId = session.get('userId')
	const user = userId ? await getPublicUser(userId) : null
	if (!user)
		throw await redirectWithToast('/auth', {
			type: 'error',
			title: 'Authentication Required',
			description: 'Please login to access medical tracker features.',
		})
	const pendingPin = session.get('pendingPin')
	if (pendingPin) {
		session.unset('pendingPin')
		throw redirect(`/claim/${encodeURIComponent(pendingPin)}`, { headers: { 'set-cookie': await sessionStorage.commitSession(session) } })
	}
	return user
}

/** Where a fresh sign-in goes: a pending PIN is claimed first, then the requested page, then the dashboard. */
export function destinationAfterSignIn(data: Pick<SessionData, 'pendingPin'>, redirectTo?: string | null) {
	if (data.pendingPin) return `/claim/${encodeURIComponent(data.pendingPin)}`
	return safeRedirect(redirectTo, '/dashboard')
}

/**
 * Signs in with a brand-new session id (the old row is deleted), carrying over what a guest had stored.
 */
export async function createUserSession(request: Request, userId: string, redirectTo?: string | null, init?: ResponseInit) {
	const previous = await getSession(request)
	const { userId: _old, redirectTo: storedRedirect, ...carried } = previous.data as SessionData
	if (previous.id) await sessionStorage.destroySession(previous)
	const session = await sessionStorage.getSession()
	for (const [key, value] of Object.entries(carried)) session.set(key, value)
	session.set('userId', userId)
	const to = destinationAfterSignIn(carried, redirectTo ?? (storedRedirect as string | undefined))
	if (carried.cart) {
		// The guest's cart joins the account's, which every device sees from now on.
		await mergeGuestCart(userId, carried.cart)
		session.unset('cart')
	}
	let toastHeaders: Headers | null = null
	if (carried.pendingPin) {
		// Signing in is the claim's confirmation: the sticker is linked now, with or without JavaScript.
		session.unset('pendingPin')
		toastHeaders = await createToastHeaders(claimToast(await claimValidatedPin({ userId, address: null }, carried.pendingPin)))
	}
	return redirect(to, {
		...init,
		headers: combineHeaders(init?.headers, { 'set-cookie': await sessionStorage.commitSession(session) }, toastHeaders),
	})
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
