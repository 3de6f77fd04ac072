import { describe, expect, test } from 'vitest'
import * as donate from '#app/routes/giving/donate.tsx'
import * as pricing from '#app/routes/giving/pricing.tsx'
import * as subscribe from '#app/routes/giving/subscribe.tsx'
import * as support from '#app/routes/giving/support.tsx'
import type { Endpoint } from '#tests/api.ts'
import { call, createUser, formRequest, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'

const pages: Array<[Endpoint, string]> = [
	[pricing.loader, '/pricing'],
	[subscribe.loader, '/subscribe?plan=basic'],
	[support.loader, '/support'],
	[donate.loader, '/donate'],
]

// No Stripe settings in this file: every giving page says so, to a visitor as to a signed-in person, and no form asks
// anyone to sign in for a gift that cannot be made.
describe('giving pages without Stripe settings', () => {
	test('/pricing, /subscribe, /support and /donate tell a visitor before any sign-in, as they tell a signed-in person', async () => {
		const cookie = await sessionCookie((await createUser()).id)
		for (const who of [undefined, cookie])
			for (const [loader, path] of pages) {
				const page = await unwrap((await call(loader, getRequest(path, who))).result)
				expect(page, `${path} ${who ? 'signed in' : 'signed out'}`).toMatchObject({
					status: 200,
					body: { enabled: false, signedIn: Boolean(who) },
				})
			}
	})

	test('a monthly gift or a tier gift posted signed out is refused as not set up, not sent to sign in', async () => {
		const monthly = await unwrap((await call(subscribe.action, formRequest('/subscribe', { plan: 'basic' }))).result)
		expect(monthly).toMatchObject({ status: 503, body: { result: { error: { '': ['Online giving is not set up on this server.'] } } } })
		// A post that is no gift at all is a 400, as it is when giving is set up.
		const junk = await unwrap((await call(subscribe.action, formRequest('/subscribe', { intent: 'claim-pin', pin: '1' }))).result)
		expect(junk).toMatchObject({ status: 400, body: { result: { error: { plan: ['Please choose a plan'] } } } })
		const tier = await unwrap((await call(support.action, formRequest('/support', { tier: 'supporter' }))).result)
		expect(tier).toMatchObject({ status: 503, body: { result: { error: { '': ['Online giving is not set up on this server.'] } } } })
	})
})
