import { data, type DataStrategyResult, type MiddlewareFunction } from 'react-router'
import { CHECKOUT_MESSAGES } from '#app/domain/shop/schemas.ts'
import type { ToastInput } from './toast.ts'

export const CLIENT_TOAST_EVENT = 'hmh-toast'

/** A toast raised in the browser, for failures the server never heard of. */
export function showClientToast(toast: ToastInput) {
	window.dispatchEvent(new CustomEvent<ToastInput>(CLIENT_TOAST_EVENT, { detail: toast }))
}

/** fetch's own failure (offline, connection dropped) is a TypeError in every browser; a server's answer never is. */
export function isNetworkFailure(error: unknown) {
	return error instanceof TypeError && /fetch|network|load failed/i.test(error.message)
}

export type NetworkFailure = { networkFailure: true; message: string }

type Unreachable = { title: string; description: string }
const GENERIC: Unreachable = { title: 'No Connection', description: 'The connection to the server failed, so this may not have been saved. Check your connection and try again.' }

/** Spec 000 §8 names what a shopper is told for two of the cart's buttons. */
const BY_INTENT: Record<string, Unreachable> = {
	'apply-discount': { title: 'Discount Code', description: CHECKOUT_MESSAGES.discountUnreachable },
	checkout: { title: CHECKOUT_MESSAGES.checkoutFailed, description: CHECKOUT_MESSAGES.checkoutFailedFallback },
}

export function unreachableToast(intent: FormDataEntryValue | null): Unreachable {
	return (typeof intent === 'string' && BY_INTENT[intent]) || GENERIC
}

/** Single fetch hands an action's outcome over as data(outcome, { status }), a thrown error included. */
function unwrap(result: unknown) {
	const wrapped = result as { type?: unknown; data?: unknown } | null
	return wrapped && typeof wrapped === 'object' && wrapped.type === 'DataWithResponseInit' ? wrapped.data : result
}

/**
 * A form whose request fails on the network would otherwise replace the page with the error screen and lose what was
 * typed. Instead the submission answers 503 with a message (the 503 stops loaders revalidating), a toast says what
 * failed, and the page stays as it was, ready to send again.
 */
export const keepPageWhenUnreachable: MiddlewareFunction<Record<string, DataStrategyResult>> = async ({ request }, next) => {
	if (request.method === 'GET') return next()
	const intent = request.body ? (await request.clone().formData().catch(() => null))?.get('intent') ?? null : null
	const results = await next()
	for (const [routeId, result] of Object.entries(results)) {
		if (result.type !== 'error' || !isNetworkFailure(unwrap(result.result))) continue
		const toast = unreachableToast(intent)
		showClientToast({ type: 'error', ...toast })
		results[routeId] = { type: 'data', result: data<NetworkFailure>({ networkFailure: true, message: toast.description }, { status: 503 }) }
	}
	return results
}
