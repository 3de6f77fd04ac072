import { describe, expect, test } from 'vitest'
import * as checkout from '#app/routes/giving/checkout.tsx'
import * as success from '#app/routes/giving/donation-success.tsx'
import { contentSecurityPolicy } from '#app/utils/csp.server.ts'
import { env } from '#app/utils/env.server.ts'
import { call, getRequest, unwrap } from '#tests/factories.ts'
import { mockStripe } from '#tests/stripe.ts'

mockStripe()

const open = async (path: string) => unwrap((await call(checkout.loader, getRequest(path))).result)

describe('/checkout', () => {
	test('without client_secret and amount (or with malformed ones) it sends the donor to /donate', async () => {
		for (const path of [
			'/checkout',
			'/checkout?amount=15',
			'/checkout?client_secret=pi_1_secret_2',
			'/checkout?client_secret=x&amount=15',
			'/checkout?client_secret=pi_1_secret_2&amount=lots',
		])
			expect(await open(path), path).toMatchObject({ status: 302, headers: expect.any(Headers) })
	})

	test("with Stripe's browser key it hands the card form the PaymentIntent; without it, it says giving is not set up here", async () => {
		const path = '/checkout?client_secret=pi_123_secret_abc&amount=15.00&methods=card&fees=x'
		expect(await open(path)).toMatchObject({ status: 200, body: { amount: '$15.00', payment: null } })
		env.STRIPE_PUBLISHABLE_KEY = 'pk_test_e2e'
		try {
			expect(await open(path)).toMatchObject({ body: { payment: { clientSecret: 'pi_123_secret_abc', publishableKey: 'pk_test_e2e' } } })
			// The card form's script, frames and calls are Stripe's: the policy lets exactly those in.
			const policy = contentSecurityPolicy('n')
			expect(policy).toContain('frame-src https://js.stripe.com https://hooks.stripe.com')
			expect(policy).toContain("connect-src 'self' https://api.stripe.com")
		} finally {
			env.STRIPE_PUBLISHABLE_KEY = undefined
		}
		expect(contentSecurityPolicy('n')).not.toContain('js.stripe.com')
	})

	test('the return page of the card form looks the gift up by its payment_intent', async () => {
		const page = await unwrap(
			(await call(success.loader, getRequest('/donation-success?payment_intent=pi_unknown&redirect_status=succeeded'))).result,
		)
		expect(page.body).toMatchObject({ paying: true, confirmed: null })
	})
})
