import { paymentsEnabled, verifyWebhook } from '#app/adapters/payments.server.ts'
import { handlePaymentEvent } from '#app/domain/giving/donations.server.ts'
import { jsonError, MAX_JSON_BYTES, readText } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/stripe-webhook'

/**
 * Stripe's webhook. The signature is checked on the body exactly as it arrived; a forged, altered or stale event is a
 * 400 and records nothing. A replayed event answers 200 and changes nothing (donations.server.ts).
 */
const api = resource<Route.ActionArgs>({
	POST: async ({ request }) => {
		if (!paymentsEnabled()) return jsonError(404, 'Online giving is not set up on this server')
		const body = await readText(request, MAX_JSON_BYTES)
		if (body === null) return jsonError(413, 'The request body is too large')
		let event
		try {
			event = verifyWebhook(body, request.headers.get('stripe-signature'))
		} catch {
			return jsonError(400, 'The webhook signature is not valid')
		}
		return Response.json({ received: true, outcome: await handlePaymentEvent(event) })
	},
})

export const loader = api.loader
export const action = api.action
