import { redirect, type RouterContextProvider } from 'react-router'
import { recordSignIn } from '#app/domain/accounts/sign-ins.server.ts'
import { claimValidatedPin } from '#app/domain/claims/claims.server.ts'
import { claimToast } from '../../features/pin-claim/claim-toast.ts'
import { mergeGuestCart } from '#app/domain/shop/cart.server.ts'
import { combineHeaders, safeRedirect } from '#app/utils/http.ts'
import { getSession, sessionStorage, type SessionData } from '#app/utils/session.server.ts'
import { createToastHeaders } from '#app/utils/toast.server.ts'
import { requestOrigin } from '#app/utils/client-place.server.ts'

/** Where a fresh sign-in goes: a pending PIN is claimed first, then the requested page, then the dashboard. */
function destinationAfterSignIn(data: Pick<SessionData, 'pendingPin'>, redirectTo?: string | null) {
	if (data.pendingPin) return `/claim/${encodeURIComponent(data.pendingPin)}`
	return safeRedirect(redirectTo, '/dashboard')
}

/**
 * Signs in with a brand-new session id (the old row is deleted), carrying over what a guest had stored. The sign-in is
 * recorded (time, client address, a trusted proxy's coarse place) and the session remembers which one it was.
 */
export async function createUserSession(
	{ request, context }: { request: Request; context: Readonly<RouterContextProvider> },
	userId: string,
	redirectTo?: string | null,
	init?: ResponseInit,
) {
	const previous = await getSession({ request, context })
	// The owner's second factor and an admin token belong to the sign-in that passed them: never carried over; nor does a
	// provider's identity waiting to be linked, or the previous sign-in's record.
	const {
		userId: _old,
		redirectTo: storedRedirect,
		ownerVerified: _verified,
		adminTokenValid: _token,
		adminTokenUserId: _tokenUser,
		pendingLink: _link,
		signInId: _signIn,
		...carried
	} = previous.data as SessionData
	if (previous.id) await sessionStorage.destroySession(previous)
	const session = await sessionStorage.getSession()
	for (const [key, value] of Object.entries(carried)) session.set(key, value)
	session.set('userId', userId)
	session.set('signInId', await recordSignIn(userId, requestOrigin(request, context)))
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
		toastHeaders = await createToastHeaders(await claimToast(claimValidatedPin({ userId, address: null }, carried.pendingPin)))
	}
	return redirect(to, {
		...init,
		headers: combineHeaders(init?.headers, { 'set-cookie': await sessionStorage.commitSession(session) }, toastHeaders),
	})
}
