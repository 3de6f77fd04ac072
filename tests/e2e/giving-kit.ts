import type { Page } from '@playwright/test'
import Stripe from 'stripe'
import type { FakeSession } from './stripe-server.ts'

export const WEBHOOK_SECRET = 'whsec_e2e'

/** Stripe's event for a paid Checkout Session of the fake server, as its webhook would post it. */
export function paidEvent(session: FakeSession, email: string, amount: number) {
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
