import { describe, expect, test } from 'vitest'
import * as root from '#app/root.tsx'
import * as dismiss from '#app/routes/public/cyber-banner-dismiss.ts'
import * as team from '#app/routes/public/team.tsx'
import { call, formRequest, getRequest, unwrap } from '#tests/factories.ts'

describe('the cyber-risk banner', () => {
	test('the root loader says to leave it out only once the hideCyberBanner cookie is set', async () => {
		const shown = await unwrap((await call(root.loader, getRequest('/team'))).result)
		expect(shown.body).toMatchObject({ hideCyberBanner: false })
		const hidden = await unwrap((await call(root.loader, getRequest('/team', 'other=1; hideCyberBanner=true'))).result)
		expect(hidden.body).toMatchObject({ hideCyberBanner: true })
	})

	test.each([
		['/payment-options?x=1', '/payment-options?x=1'],
		['//evil.example/steal', '/'],
		['https://evil.example/', '/'],
		['', '/'],
	])('dismissing without JavaScript sets the cookie for a year and goes back to %s → %s', async (redirectTo, location) => {
		const response = await unwrap((await call(dismiss.action, formRequest('/cyber-banner/dismiss', { redirectTo }))).result)
		expect(response.status).toBe(302)
		expect(response).toHaveRedirect(location)
		expect(response.headers.get('set-cookie')).toBe('hideCyberBanner=true; Max-Age=31536000; Path=/; SameSite=Lax')
	})

	test('a GET changes nothing', async () => {
		const response = await unwrap((await call(dismiss.loader, getRequest('/cyber-banner/dismiss'))).result)
		expect(response.headers.get('set-cookie')).toBeNull()
	})
})

describe('/team', () => {
	test('the product dialog lists the four shop products in catalogue order; the contact is SUPPORT_EMAIL', async () => {
		const closed = await unwrap((await call(team.loader, getRequest('/team'))).result)
		expect(closed.body).toEqual({ supportEmail: 'support@hitmehelpers.org', dialogOpen: false, shopProducts: [] })
		const open = await unwrap((await call(team.loader, getRequest('/team?dialog=products'))).result)
		const { shopProducts } = open.body as { shopProducts: Array<{ name: string }> }
		expect(shopProducts.map((p) => p.name)).toEqual([
			'Small Medical QR Sticker (2x2 in)',
			'Large Medical QR Sticker (3x3 in)',
			'Medical Alert Card - Acrylic',
			'Medical Alert Card - Metal',
		])
	})
})
