import { describe, expect, test } from 'vitest'
import * as support from '#app/routes/giving/support.tsx'
import { env } from '#app/utils/env.server.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { call, createUser, formRequest, getRequest, sessionCookie, testAddress, unwrap } from '#tests/factories.ts'
import { mockStripe } from '#tests/stripe.ts'

const stripe = mockStripe()

async function post(fields: Record<string, string>, cookie?: string, address?: string) {
	const { result, context } = await call(support.action, formRequest('/support', fields, { cookie }), {}, address)
	return { ...(await unwrap(result)), toast: context.get(requestToastContext) }
}

async function signedIn() {
	const user = await createUser()
	return { user, cookie: await sessionCookie(user.id) }
}

describe('the donation tier page (/support)', () => {
	test('anyone can read it; the choice in the address is the one it opens with', async () => {
		const page = await unwrap((await call(support.loader, getRequest('/support?tier=custom&amount=42.50'))).result)
		expect(page).toMatchObject({ status: 200, body: { enabled: true, signedIn: false, tier: 'custom', amount: '42.50' } })
		const odd = await unwrap((await call(support.loader, getRequest('/support?tier=platinum'))).result)
		expect(odd.body).toMatchObject({ tier: 'advocate', amount: '' })
	})

	test('a signed-out donor is sent to sign in and back to the same choice; Stripe is not called', async () => {
		const answer = await post({ tier: 'custom', customAmount: '25' })
		expect(answer.status).toBe(302)
		const location = new URL(answer.headers.get('location')!, 'http://x')
		expect(location.pathname).toBe('/api/login')
		expect(location.searchParams.get('redirectTo')).toBe('/support?tier=custom&amount=25')
		expect(stripe.calls).toEqual([])
	})

	test.each([
		['supporter', 500],
		['advocate', 1500],
		['champion', 5000],
	])('the %s card gives exactly its amount through a Checkout Session named to the donor', async (tier, cents) => {
		const { user, cookie } = await signedIn()
		const answer = await post({ tier, customAmount: '' }, cookie)
		expect(answer.status).toBe(303)
		const [created] = stripe.calls
		expect(created!.form.get('line_items[0][price_data][unit_amount]')).toBe(String(cents))
		expect(created!.form.get('metadata[tier]')).toBe(tier)
		expect(created!.form.get('customer_email')).toBe(user.email)
		expect(created!.form.get('cancel_url')).toMatch(new RegExp(`/support\\?tier=${tier}$`))
	})

	test('a custom amount with the card fee covered charges the gross and records the gift apart', async () => {
		const { cookie } = await signedIn()
		expect((await post({ tier: 'custom', customAmount: '15', coverFees: 'on' }, cookie)).status).toBe(303)
		expect(stripe.calls[0]!.form.get('line_items[0][price_data][unit_amount]')).toBe('1576')
		expect(stripe.calls[0]!.form.get('metadata[net_cents]')).toBe('1500')
	})

	test.each([
		['0.5', 'Invalid Amount', 'Please enter a valid donation amount of at least $1.'],
		['', 'Invalid Amount', 'Please enter a valid donation amount of at least $1.'],
		['10000.01', 'Amount Too Large', 'Please contact us directly for donations over $10,000.'],
	])('a custom amount of %j is refused beside the field with the toast %j', async (amount, title, description) => {
		const { cookie } = await signedIn()
		const answer = await post({ tier: 'custom', customAmount: amount }, cookie)
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ result: { error: { customAmount: [description] } } })
		expect(answer.toast).toMatchObject({ type: 'error', title, description })
		expect(stripe.calls).toEqual([])
	})

	test("Stripe failing gives the tier page's own message: 'Error' / 'Failed to process donation. Please try again.'", async () => {
		const { cookie } = await signedIn()
		stripe.failNextCall()
		const answer = await post({ tier: 'supporter' }, cookie)
		expect(answer.status).toBe(503)
		expect(answer.body).toMatchObject({ result: { error: { '': ['Failed to process donation. Please try again.'] } } })
		expect(answer.toast).toMatchObject({ title: 'Error', description: 'Failed to process donation. Please try again.' })
	})

	test("too many gifts from one address are a 429 with Retry-After; the tier page's toast keeps its own wording", async () => {
		const { cookie } = await signedIn()
		const address = testAddress()
		for (let i = 0; i < env.RATE_LIMIT_STRICT_PER_MINUTE; i++) expect((await post({ tier: 'supporter' }, cookie, address)).status).toBe(303)
		const answer = await post({ tier: 'supporter' }, cookie, address)
		expect(answer.status).toBe(429)
		expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(answer.body).toMatchObject({ result: { error: { '': [TOO_MANY_ATTEMPTS] } } })
		expect(answer.toast).toMatchObject({ type: 'error', title: 'Error', description: 'Failed to process donation. Please try again.' })
	})

	test("without Stripe settings the form is refused as not set up, under the tier page's own toast", async () => {
		const key = env.STRIPE_SECRET_KEY
		env.STRIPE_SECRET_KEY = undefined
		try {
			const answer = await post({ tier: 'supporter' })
			expect(answer.status).toBe(503)
			expect(answer.body).toMatchObject({ result: { error: { '': ['Online giving is not set up on this server.'] } } })
			expect(answer.toast).toMatchObject({ type: 'error', title: 'Error', description: 'Failed to process donation. Please try again.' })
			expect(stripe.calls).toEqual([])
		} finally {
			env.STRIPE_SECRET_KEY = key
		}
	})
})
