import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import Stripe from 'stripe'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { env } from '#app/utils/env.server.ts'

// Stripe's API mocked at the network boundary, answering the shapes Stripe documents; webhooks signed for real.

export const WEBHOOK_SECRET = 'whsec_test_secret'
const API = 'https://api.stripe.com/v1'

export type StripeCall = { method: string; path: string; form: URLSearchParams }

/** For one test file: Stripe settings on, every call to Stripe's API recorded and answered here. */
export function mockStripe() {
	const calls: StripeCall[] = []
	// Stripe's own copies of what it holds, by the path that reads one: what GET /v1/{path}/{id} answers.
	const known = new Map<string, Map<string, Record<string, unknown>>>(
		['checkout/sessions', 'payment_intents', 'invoices', 'charges'].map((path) => [path, new Map()]),
	)
	const PATHS: Record<string, string> = {
		'checkout.session': 'checkout/sessions',
		payment_intent: 'payment_intents',
		invoice: 'invoices',
		charge: 'charges',
	}
	let failing = 0
	let unreachable = 0
	/** Stripe's answer when it fails on its side, while failNextCall has calls left to fail. */
	const failure = () => {
		if (failing <= 0) return null
		failing--
		return HttpResponse.json({ error: { type: 'api_error', message: 'Something went wrong on our end.' } }, { status: 500 })
	}
	const server = setupServer(
		http.post(`${API}/checkout/sessions`, async ({ request }) => {
			const form = new URLSearchParams(await request.text())
			calls.push({ method: 'POST', path: '/v1/checkout/sessions', form })
			const failed = failure()
			if (failed) return failed
			const id = `cs_test_${Math.random().toString(36).slice(2, 12)}`
			return HttpResponse.json({
				id,
				object: 'checkout.session',
				mode: form.get('mode'),
				status: 'open',
				payment_status: 'unpaid',
				amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
				currency: 'usd',
				url: `https://checkout.stripe.com/c/pay/${id}`,
				success_url: form.get('success_url'),
				cancel_url: form.get('cancel_url'),
			})
		}),
		http.post(`${API}/payment_intents`, async ({ request }) => {
			const form = new URLSearchParams(await request.text())
			calls.push({ method: 'POST', path: '/v1/payment_intents', form })
			const failed = failure()
			if (failed) return failed
			const id = `pi_${Math.random().toString(36).slice(2, 14)}`
			return HttpResponse.json({
				id,
				object: 'payment_intent',
				amount: Number(form.get('amount')),
				currency: form.get('currency'),
				status: 'requires_payment_method',
				client_secret: `${id}_secret_${Math.random().toString(36).slice(2, 14)}`,
				payment_method_types: ['card', 'link', 'cashapp'],
			})
		}),
		http.post(`${API}/billing_portal/sessions`, async ({ request }) => {
			const form = new URLSearchParams(await request.text())
			calls.push({ method: 'POST', path: '/v1/billing_portal/sessions', form })
			const failed = failure()
			if (failed) return failed
			const id = `bps_${Math.random().toString(36).slice(2, 12)}`
			return HttpResponse.json({
				id,
				object: 'billing_portal.session',
				customer: form.get('customer'),
				return_url: form.get('return_url'),
				url: `https://billing.stripe.com/p/session/${id}`,
			})
		}),
		...[...known].map(([path, objects]) =>
			http.get(`${API}/${path}/:id`, ({ params }) => {
				calls.push({ method: 'GET', path: `/v1/${path}/${params.id}`, form: new URLSearchParams() })
				if (unreachable > 0) {
					unreachable--
					return HttpResponse.error()
				}
				const object = objects.get(String(params.id))
				if (object) return HttpResponse.json(object)
				// A charge of the in-page card form, for its payer's details: `ch_x_email_<who>` was paid by <who>@example.com.
				if (path === 'charges' && String(params.id).includes('_email_')) {
					const email = `${String(params.id).split('_email_')[1]}@example.com`
					return HttpResponse.json({ id: params.id, object: 'charge', billing_details: { email, name: 'Card Holder' } })
				}
				return HttpResponse.json(
					{ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${path}: '${params.id}'` } },
					{ status: 404 },
				)
			}),
		),
	)
	const saved = { secret: env.STRIPE_SECRET_KEY, webhook: env.STRIPE_WEBHOOK_SECRET }
	beforeAll(() => {
		server.listen({ onUnhandledRequest: 'error' })
		env.STRIPE_SECRET_KEY = 'sk_test_mocked'
		env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
	})
	afterEach(() => {
		calls.length = 0
		unreachable = 0
	})
	afterAll(() => {
		server.close()
		env.STRIPE_SECRET_KEY = saved.secret
		env.STRIPE_WEBHOOK_SECRET = saved.webhook
	})
	return {
		calls,
		/** The next Checkout Session creation fails as Stripe's API does (500), retries included. */
		failNextCall: () => {
			failing = 3
		},
		/**
		 * Stripe holds this object (a Checkout Session, PaymentIntent, invoice or charge, by its `object`) as given, and
		 * answers it to GET /v1/{its path}/{id}; anything it was not told of is a 404, as Stripe's own answer.
		 */
		know: <T extends Record<string, unknown>>(object: T) => {
			const path = PATHS[String(object.object)]
			if (!path) throw new Error(`mockStripe cannot hold a ${String(object.object)}`)
			known.get(path)!.set(String(object.id), object)
			return object
		},
		/** The next `times` reads from Stripe fail at the network, as when Stripe cannot be reached. */
		unreachable: (times = 1) => {
			unreachable = times
		},
	}
}

let counter = 0
export const uniqueId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}`

/** An event as Stripe sends it. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = uniqueId('evt')) {
	return { id, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), type, data: { object } }
}

/** The body and the Stripe-Signature header Stripe would send, signed with `secret` at `timestamp`. */
export function signed(event: unknown, secret = WEBHOOK_SECRET, timestamp = Math.floor(Date.now() / 1000)) {
	const payload = JSON.stringify(event)
	return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) }
}

/** Metadata the app puts on a gift, as Stripe hands it back. */
export const giftMetadata = (netCents: number, tier = 'advocate', userId?: string, kind = 'donation') => ({
	kind,
	tier,
	net_cents: String(netCents),
	...(userId && { user_id: userId }),
})
