import { data, type DataStrategyResult, type MiddlewareFunction } from 'react-router'
import { isDatabaseOutage, OUTAGE_MESSAGE } from './database-outage.ts'
import { isDataResult } from './http.ts'
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

/** What people are told when a form cannot reach the server: the spec's error catalogues (000 §8, 001 §8, 002 §8). */
export type Unreachable = { title: string; description: string }
export const NO_CONNECTION: Unreachable = {
	title: 'No Connection',
	description: 'The connection to the server failed, so this may not have been saved. Check your connection and try again.',
}

/**
 * Each form declares its own message in a hidden field: `_offline` for the whole form, or `_offline.<intent>` when
 * its buttons send different intents. The server ignores both.
 */
export const OFFLINE_FIELD = '_offline'
export const offlineFieldName = (intent?: string) => (intent ? `${OFFLINE_FIELD}.${intent}` : OFFLINE_FIELD)

function declared(value: FormDataEntryValue | null | undefined): Unreachable | null {
	if (typeof value !== 'string') return null
	try {
		const parsed = JSON.parse(value) as Partial<Unreachable> | null
		return typeof parsed?.title === 'string' && typeof parsed.description === 'string'
			? { title: parsed.title, description: parsed.description }
			: null
	} catch {
		return null
	}
}

export function unreachableToast(form: FormData | null, fallback: Unreachable = NO_CONNECTION): Unreachable {
	const intent = form?.get('intent')
	return (
		declared(typeof intent === 'string' && intent ? form?.get(offlineFieldName(intent)) : null) ??
		declared(form?.get(OFFLINE_FIELD)) ??
		fallback
	)
}

/** The server answered, but its database did not (503): said apart from a lost connection when the form names nothing. */
const UNAVAILABLE: Unreachable = { title: 'Temporarily Unavailable', description: OUTAGE_MESSAGE }

/** Single fetch hands an action's outcome over as data(outcome, { status }), a thrown error included. */
function unwrap(result: unknown) {
	return isDataResult(result) ? result.data : result
}

/**
 * A form whose request fails on the network, or that the server answers 503 because its database is down, would
 * otherwise replace the page with the error screen and lose what was typed. Instead the submission answers 503 with a
 * message (the 503 stops loaders revalidating), a toast says what failed, and the page stays as it was, ready to send
 * again.
 */
export const keepPageWhenUnreachable: MiddlewareFunction<Record<string, DataStrategyResult>> = async ({ request }, next) => {
	if (request.method === 'GET') return next()
	const copy = request.body ? request.clone() : null
	const results = await next()
	const failure = (routeId: string) => (results[routeId]!.type === 'error' ? unwrap(results[routeId]!.result) : null)
	const failed = Object.keys(results).filter((routeId) => isNetworkFailure(failure(routeId)) || isDatabaseOutage(failure(routeId)))
	if (!failed.length) return results
	const unavailable = failed.every((routeId) => isDatabaseOutage(failure(routeId)))
	const toast = unreachableToast((await copy?.formData().catch(() => null)) ?? null, unavailable ? UNAVAILABLE : NO_CONNECTION)
	showClientToast({ type: 'error', ...toast })
	for (const routeId of failed)
		results[routeId] = { type: 'data', result: data<NetworkFailure>({ networkFailure: true, message: toast.description }, { status: 503 }) }
	return results
}
