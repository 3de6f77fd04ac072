import { describe, expect, test } from 'vitest'
import * as donate from '#app/routes/giving/donate.tsx'
import { env } from '#app/utils/env.server.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { call, createUser, formRequest, getRequest, sessionCookie, testAddress, unwrap } from '#tests/factories.ts'
import { mockStripe } from '#tests/stripe.ts'

const stripe = mockStripe()

async function post(fields: Record<string, string>, cookie?: string, address?: string) {
	const { result, context } = await call(donate.action, formRequest('/donate', fields, { cookie }), {}, address)
	return { ...(await unwrap(result)), toast: context.get(requestToastContext) }
}

describe('/donate', () => {
	test('a filled honeypot is refused as if Checkout could not start, and nothing reaches Stripe', async () => {
		const answer = await post({ tier: 'advocate', website: 'https://spam.example' })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ result: { error: { '': ['Failed to create payment intent'] } } })
		expect(answer.toast).toMatchObject({ type: 'error', title: 'Donation Error', description: 'Failed to create payment intent' })
		expect(stripe.calls).toEqual([])
	})

	test('a preset gift goes to a Stripe Checkout Session for exactly that amount, by a 303 to its page', async () => {
		const answer = await post({ tier: 'advocate' })
		expect(answer.status).toBe(303)
		expect(answer.headers.get('location')).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
		const [created] = stripe.calls
		expect(created!.form.get('mode')).toBe('payment')
		expect(created!.form.get('line_items[0][price_data][unit_amount]')).toBe('1500')
		expect(created!.form.get('line_items[0][price_data][currency]')).toBe('usd')
		expect(created!.form.get('metadata[net_cents]')).toBe('1500')
		expect(created!.form.get('payment_intent_data[metadata][tier]')).toBe('advocate')
		expect(created!.form.get('success_url')).toBe(`${env.PUBLIC_URL}/donation-success?session_id={CHECKOUT_SESSION_ID}`)
	})

	test('covering the fees charges ⌈(net + 30¢) / 97.1%⌉ and records the gift itself in the metadata', async () => {
		await post({ tier: 'custom', customAmount: '15', coverFees: 'on' })
		expect(stripe.calls[0]!.form.get('line_items[0][price_data][unit_amount]')).toBe('1576')
		expect(stripe.calls[0]!.form.get('metadata[net_cents]')).toBe('1500')
	})

	test('a signed-in donor is named to Stripe, so the receipt finds them', async () => {
		const user = await createUser()
		await post({ tier: 'champion' }, await sessionCookie(user.id))
		expect(stripe.calls[0]!.form.get('customer_email')).toBe(user.email)
		expect(stripe.calls[0]!.form.get('metadata[user_id]')).toBe(user.id)
	})

	test.each([
		['0.99', 'Please enter a valid donation amount of at least $1.'],
		['', 'Please enter a valid donation amount of at least $1.'],
		['abc', 'Please enter a valid donation amount of at least $1.'],
		['1.234', 'Please enter a valid donation amount of at least $1.'],
		['-5', 'Please enter a valid donation amount of at least $1.'],
		['10000.01', 'Please contact us directly for donations over $10,000.'],
		['1e9', 'Please enter a valid donation amount of at least $1.'],
	])('a custom amount of %j is refused beside the field, with its toast, and Stripe is not called', async (amount, message) => {
		const answer = await post({ tier: 'custom', customAmount: amount })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ result: { error: { customAmount: [message] } } })
		expect(answer.toast).toMatchObject({ type: 'error', description: message })
		expect(stripe.calls).toEqual([])
	})

	test('$1 and $10,000 are accepted; an unknown tier is refused', async () => {
		expect((await post({ tier: 'custom', customAmount: '1' })).status).toBe(303)
		expect((await post({ tier: 'custom', customAmount: '10000.00' })).status).toBe(303)
		const unknown = await post({ tier: 'platinum' })
		expect(unknown.status).toBe(400)
		expect(unknown.body).toMatchObject({ result: { error: { tier: ['Please choose an amount'] } } })
		expect(unknown.toast).toMatchObject({
			type: 'error',
			title: 'Invalid Amount',
			description: 'Please enter a valid donation amount of at least $1.',
		})
	})

	test("Stripe failing keeps the donor on the page with the spec's message; nothing is charged", async () => {
		stripe.failNextCall()
		const answer = await post({ tier: 'custom', customAmount: '25' })
		expect(answer.status).toBe(503)
		expect(answer.body).toMatchObject({ result: { error: { '': ['Failed to create payment intent'] } } })
		expect(answer.toast).toMatchObject({ title: 'Donation Error', description: 'Failed to create payment intent' })
	})

	test('without Stripe settings the page explains itself and the form is refused plainly', async () => {
		const key = env.STRIPE_SECRET_KEY
		env.STRIPE_SECRET_KEY = undefined
		try {
			const page = await unwrap((await call(donate.loader, getRequest('/donate'))).result)
			expect(page).toMatchObject({ status: 200, body: { enabled: false } })
			const refused = await post({ tier: 'advocate' })
			expect(refused.status).toBe(503)
			expect(refused.body).toMatchObject({ result: { error: { '': ['Online giving is not set up on this server.'] } } })
			expect(refused.toast).toMatchObject({ title: 'Donation Error', description: 'Online giving is not set up on this server.' })
			expect(stripe.calls).toEqual([])
		} finally {
			env.STRIPE_SECRET_KEY = key
		}
	})

	test('too many gifts from one address are a 429 with Retry-After, the typed amount kept, and Stripe is not called', async () => {
		const address = testAddress()
		for (let i = 0; i < env.RATE_LIMIT_STRICT_PER_MINUTE; i++)
			expect((await post({ tier: 'supporter' }, undefined, address)).status).toBe(303)
		const calls = stripe.calls.length
		const answer = await post({ tier: 'custom', customAmount: '20' }, undefined, address)
		expect(answer.status).toBe(429)
		expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(answer.body).toMatchObject({ result: { error: { '': [TOO_MANY_ATTEMPTS] }, initialValue: { customAmount: '20' } } })
		expect(answer.toast).toMatchObject({ type: 'error', title: 'Donation Error', description: TOO_MANY_ATTEMPTS })
		expect(stripe.calls).toHaveLength(calls)
	})
})
