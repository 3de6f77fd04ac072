import type { Page } from '@playwright/test'
import Stripe from 'stripe'
import type { FakeIntent, FakeSession } from './stripe-server.ts'

export const WEBHOOK_SECRET = 'whsec_e2e'

/**
 * The donor pays on the fake server's page for the Checkout Session (the webhook reads it back from there, paid), and
 * this is Stripe's event for it, as its webhook would post it.
 */
export function paidEvent(session: FakeSession, email: string, amount: number) {
	session.paid = { email, name: 'Test Donor', amountCents: amount }
	return {
		id: `evt_${session.id}`,
		object: 'event',
		type: 'checkout.session.completed',
		created: Math.floor(Date.now() / 1000),
		data: {
			object: {
				id: session.id,
				object: 'checkout.session',
				mode: 'payment',
				payment_status: 'paid',
				amount_total: amount,
				payment_intent: `pi_${session.id}`,
				customer_details: { email, name: 'Test Donor' },
				metadata: session.metadata,
			},
		},
	}
}

/** The card went through for the fake server's PaymentIntent, and this is Stripe's event for it. */
export function succeededEvent(intent: FakeIntent, email: string) {
	intent.succeeded = { email }
	return {
		id: `evt_${intent.id}`,
		object: 'event',
		type: 'payment_intent.succeeded',
		created: Math.floor(Date.now() / 1000),
		data: {
			object: {
				id: intent.id,
				object: 'payment_intent',
				status: 'succeeded',
				amount: intent.amountCents,
				amount_received: intent.amountCents,
				currency: 'usd',
				receipt_email: email,
				metadata: intent.metadata,
			},
		},
	}
}

export function postWebhook(page: Page, baseURL: string, event: unknown, secret = WEBHOOK_SECRET) {
	const payload = JSON.stringify(event)
	return page.request.post(`${baseURL}/api/stripe/webhook`, {
		data: payload,
		headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
	})
}

export const stripeSettings = (stripe: { base: string }, smtp: { url: string }) => ({
	SMTP_URL: smtp.url,
	STRIPE_SECRET_KEY: 'sk_test_e2e',
	STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
	STRIPE_API_BASE: stripe.base,
	FOUNDATION_TAX_ID: '12-3456789',
})
