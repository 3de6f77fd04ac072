import { data, type DataStrategyResult, type MiddlewareFunction } from 'react-router'
import { CONSENT_INTENTS } from '#app/domain/consent/schemas.ts'
import { REQUEST_FAILED } from '#app/domain/requests/schemas.ts'
import { CHECKOUT_MESSAGES } from '#app/domain/shop/schemas.ts'
import { PROFILE_INTENTS } from '#app/routes/account/intents.ts'
import { INTENTS } from '#app/routes/medical/intents.ts'
import { QR_INTENTS } from '#app/routes/qr/intents.ts'
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

/** The spec's error catalogues (000 §8, 001 §8, 002 §8) name what people are told when these fail. */
const BY_INTENT: Record<string, Unreachable> = {
	'apply-discount': { title: 'Discount Code', description: CHECKOUT_MESSAGES.discountUnreachable },
	checkout: { title: CHECKOUT_MESSAGES.checkoutFailed, description: CHECKOUT_MESSAGES.checkoutFailedFallback },
	[INTENTS.addFamily]: { title: 'Error', description: 'Failed to create profile. Please try again.' },
	[INTENTS.deleteProfile]: { title: 'Error', description: 'Failed to delete profile. Please try again.' },
	[INTENTS.updateQrCodes]: { title: 'Error', description: 'Failed to update QR codes' },
	[INTENTS.uploadPicture]: { title: 'Upload Failed', description: 'Upload failed' },
	[INTENTS.uploadDocument]: { title: 'Upload Failed', description: 'Failed to upload document' },
	[INTENTS.saveDnr]: { title: 'Upload Failed', description: 'Failed to upload document. Please try again.' },
	[QR_INTENTS.generate]: { title: 'Error', description: 'Failed to generate QR code' },
	[QR_INTENTS.remove]: { title: 'Error', description: 'Failed to delete QR code' },
	[QR_INTENTS.toggle]: { title: 'Error', description: 'Failed to toggle QR code status' },
	[PROFILE_INTENTS.deleteAccount]: { title: 'Deletion Failed', description: 'Failed to delete account. Please try again.' },
	[PROFILE_INTENTS.updateName]: { title: 'Update Failed', description: GENERIC.description },
	[PROFILE_INTENTS.changeEmail]: { title: 'Update Failed', description: GENERIC.description },
	[CONSENT_INTENTS.agree]: { title: 'Error', description: 'Failed to record consent. Please try again.' },
}

const BY_PATH: [RegExp, Unreachable][] = [
	[/^\/signup$/, { title: 'Signup Error', description: 'Unable to create account. Please try again.' }],
	[/^\/claim\/[^/]+$/, { title: 'Claim Failed', description: 'Failed to claim QR code' }],
	[/^\/request-qr$/, { title: 'Request Failed', description: REQUEST_FAILED }],
	[/^\/api\/auth\/logout$/, { title: 'Logout Error', description: 'There was an issue logging out. Please try again.' }],
]

export function unreachableToast(url: URL, intent: FormDataEntryValue | null): Unreachable {
	const path = url.pathname.replace(/\.data$/, '')
	return (typeof intent === 'string' && BY_INTENT[intent]) || BY_PATH.find(([pattern]) => pattern.test(path))?.[1] || GENERIC
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
	const copy = request.body ? request.clone() : null
	const results = await next()
	const failed = Object.keys(results).filter((routeId) => results[routeId]!.type === 'error' && isNetworkFailure(unwrap(results[routeId]!.result)))
	if (!failed.length) return results
	const intent = (await copy?.formData().catch(() => null))?.get('intent') ?? null
	const toast = unreachableToast(new URL(request.url), intent)
	showClientToast({ type: 'error', ...toast })
	for (const routeId of failed) results[routeId] = { type: 'data', result: data<NetworkFailure>({ networkFailure: true, message: toast.description }, { status: 503 }) }
	return results
}
