import { paymentsEnabled, PaymentsUnreachable, verifyWebhook } from '#app/adapters/payments.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { handlePaymentEvent } from '#app/domain/giving/donations.server.ts'
import { jsonError, MAX_JSON_BYTES, readText } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/stripe-webhook'
import { log } from '#app/utils/log.server.ts'

/**
 * Stripe's webhook. The signature is checked on the body exactly as it arrived; a forged, altered or stale event is a
 * 400 and records nothing. A replayed event answers 200 and changes nothing (donations.server.ts). Stripe sends an
 * event again for days until it gets a 2xx, so a signed event the app cannot use is a 400 once and a duplicate after;
 * only a failure that passes (Stripe out of reach, or the database down) is a 503, to be sent again.
 */
const api = resource<Route.ActionArgs>({
	POST: async ({ request }) => {
		if (!paymentsEnabled()) return jsonError(404, 'Online giving is not set up on this server')
		const body = await readText(request, MAX_JSON_BYTES)
		if (body === null) return jsonError(413, 'The request body is too large')
		let event: unknown
		try {
			event = verifyWebhook(body, request.headers.get('stripe-signature'))
		} catch {
			return jsonError(400, 'The webhook signature is not valid')
		}
		try {
			return Response.json({ received: true, outcome: await handlePaymentEvent(event) })
		} catch (error) {
			// A refused event is logged by name here; resource() answers it like any refusal (its status and message).
			if (error instanceof DomainError) log.warn({ event: eventName(event), err: error }, 'Stripe event refused')
			if (error instanceof PaymentsUnreachable) {
				log.warn({ event: eventName(event), err: error }, 'Stripe event not handled yet')
				return Response.json({ message: error.message }, { status: 503, headers: { 'retry-after': '60' } })
			}
			throw error
		}
	},
})

/** Its type and id, for the log: nothing else of an event goes there (its objects hold people's names and e-mails). */
function eventName(event: unknown) {
	const { type, id } = (event && typeof event === 'object' ? event : {}) as { type?: unknown; id?: unknown }
	const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : '?')
	return `${shown(type)} ${shown(id)}`
}

export const loader = api.loader
export const action = api.action
