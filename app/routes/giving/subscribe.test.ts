import { describe, expect, test } from 'vitest'
import * as subscribe from '#app/routes/giving/subscribe.tsx'
import { env } from '#app/utils/env.server.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { call, createUser, formRequest, sessionCookie, testAddress, unwrap } from '#tests/factories.ts'
import { mockStripe } from '#tests/stripe.ts'

const stripe = mockStripe()

async function post(fields: Record<string, string>, cookie?: string, address?: string) {
	const { result, context } = await call(subscribe.action, formRequest('/subscribe', fields, { cookie }), {}, address)
	return { ...(await unwrap(result)), toast: context.get(requestToastContext) }
}

const signedIn = async () => sessionCookie((await createUser()).id)

describe('the monthly gift form (/subscribe)', () => {
	test('a plan that is not one is a 400 with the "Error" toast; Stripe is not called', async () => {
		const answer = await post({ plan: 'gold' }, await signedIn())
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ result: { error: { plan: ['Please choose a plan'] } } })
		expect(answer.toast).toMatchObject({ type: 'error', title: 'Error', description: 'Please choose a plan' })
		expect(stripe.calls).toEqual([])
	})

	test('signed out, a plan sends the donor to sign in and back to the plans', async () => {
		const answer = await post({ plan: 'basic' })
		expect(answer.status).toBe(302)
		expect(answer.headers.get('location')).toBe('/login?redirectTo=/pricing')
		expect(stripe.calls).toEqual([])
	})

	test('Stripe failing keeps the donor on the page with "Failed to process donation. Please try again."', async () => {
		stripe.failNextCall()
		const answer = await post({ plan: 'premium' }, await signedIn())
		expect(answer.status).toBe(503)
		expect(answer.body).toMatchObject({ result: { error: { '': ['Failed to process donation. Please try again.'] } } })
		expect(answer.toast).toMatchObject({ type: 'error', title: 'Error', description: 'Failed to process donation. Please try again.' })
	})

	test('too many attempts from one address are a 429 with Retry-After', async () => {
		const cookie = await signedIn()
		const address = testAddress()
		for (let i = 0; i < env.RATE_LIMIT_STRICT_PER_MINUTE; i++) expect((await post({ plan: 'basic' }, cookie, address)).status).toBe(303)
		const answer = await post({ plan: 'basic' }, cookie, address)
		expect(answer.status).toBe(429)
		expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(answer.body).toMatchObject({ result: { error: { '': [TOO_MANY_ATTEMPTS] } } })
		expect(answer.toast).toMatchObject({ type: 'error', title: 'Error', description: TOO_MANY_ATTEMPTS })
	})
})
