import { describe, expect, test } from 'vitest'
import * as createDonation from '#app/routes/api/create-donation.ts'
import * as createPaymentIntent from '#app/routes/api/create-payment-intent.ts'
import { env } from '#app/utils/env.server.ts'
import { json, type Endpoint } from '#tests/api.ts'
import { createUser, sessionCookie } from '#tests/factories.ts'
import { mockStripe } from '#tests/stripe.ts'

const stripe = mockStripe()

describe('the in-page payment calls (spec 002 §7)', () => {
	test("POST /api/create-donation with the spec's payload answers clientSecret, supportedMethods and fees", async () => {
		const user = await createUser()
		const answer = await json(
			createDonation.action,
			'POST',
			'/api/create-donation',
			{ tierId: 'advocate', amount: 1500 },
			await sessionCookie(user.id),
		)
		expect(answer).toMatchObject({ status: 200, body: { clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/), amountCents: 1500 } })
		expect(answer.body.supportedMethods).toEqual(['card', 'link', 'cashapp'])
		expect(answer.body.fees).toContainEqual(expect.objectContaining({ group: 'cards', percent: 2.9, fixedCents: 30 }))
		const form = stripe.calls[0]!.form
		expect(form.get('amount')).toBe('1500')
		expect(form.get('automatic_payment_methods[enabled]')).toBe('true')
		expect(form.get('metadata[tier]')).toBe('advocate')
		expect(form.get('metadata[user_id]')).toBe(user.id)
		expect(form.get('receipt_email')).toBe(user.email)
	})

	test("POST /api/create-payment-intent with the spec's payload (dollars, metadata) works for a guest", async () => {
		const body = { amount: 25, metadata: { payment_type: 'donation', donationType: 'support' } }
		expect(await json(createPaymentIntent.action, 'POST', '/api/create-payment-intent', body)).toMatchObject({
			status: 200,
			body: { amountCents: 2500 },
		})
		expect(stripe.calls[0]!.form.get('amount')).toBe('2500')
		expect(stripe.calls[0]!.form.get('metadata[net_cents]')).toBe('2500')
		await json(createPaymentIntent.action, 'POST', '/api/create-payment-intent', { amount: '15.50', coverFees: true })
		expect(stripe.calls[1]!.form.get('amount')).toBe(String(Math.ceil(((1550 + 30) * 1000) / 971)))
	})

	const LOW = 'Please enter a valid donation amount of at least $1.'
	const HIGH = 'Please contact us directly for donations over $10,000.'
	test.each<[string, Endpoint, Record<string, unknown>, string]>([
		['/api/create-donation', createDonation.action, { tierId: 'custom', amount: 99 }, LOW],
		['/api/create-donation', createDonation.action, { tierId: 'custom', amount: 1_000_001 }, HIGH],
		['/api/create-donation', createDonation.action, { tierId: 'custom', amount: 15.5 }, LOW],
		['/api/create-payment-intent', createPaymentIntent.action, { amount: 0.5 }, LOW],
		['/api/create-payment-intent', createPaymentIntent.action, { amount: 10_000.01 }, HIGH],
		['/api/create-payment-intent', createPaymentIntent.action, { amount: 'lots' }, LOW],
	])('%s with %j is a 400 with the spec message, and Stripe is not called', async (path, action, body, message) => {
		expect(await json(action, 'POST', path, body)).toMatchObject({ status: 400, body: { message } })
		expect(stripe.calls).toEqual([])
	})

	test('without Stripe settings both answer 503, saying so', async () => {
		const key = env.STRIPE_SECRET_KEY
		env.STRIPE_SECRET_KEY = undefined
		try {
			expect(await json(createPaymentIntent.action, 'POST', '/api/create-payment-intent', { amount: 25 })).toMatchObject({
				status: 503,
				body: { message: 'Online giving is not set up on this server.' },
			})
		} finally {
			env.STRIPE_SECRET_KEY = key
		}
	})
})
