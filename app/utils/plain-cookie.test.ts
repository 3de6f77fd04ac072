import { describe, expect, test, vi } from 'vitest'
import { HIDE_CYBER_BANNER, rememberCyberBannerHidden } from './cyber-banner.ts'
import { hideCyberBanner, isCyberBannerHidden } from './cyber-banner.server.ts'
import { plainCookie } from './plain-cookie.ts'

describe('plainCookie', () => {
	const cookie = plainCookie('hmh_test', { path: '/scan', maxAge: 60, httpOnly: true, sameSite: 'lax' })

	test('writes the text itself with the attributes asked for, as the hand-written header did', async () => {
		expect(await cookie.serialize('2026-11-01')).toBe('hmh_test=2026-11-01; Max-Age=60; Path=/scan; HttpOnly; SameSite=Lax')
		expect(await cookie.serialize('abc', { secure: true })).toBe('hmh_test=abc; Max-Age=60; Path=/scan; HttpOnly; Secure; SameSite=Lax')
	})

	test('reads the text back from a Cookie header among others, URL-decoded; nothing when absent', async () => {
		expect(await cookie.parse('a=1; hmh_test=2026-10-31; b=2')).toBe('2026-10-31')
		expect(await cookie.parse('xhmh_test=1')).toBeNull()
		expect(await cookie.parse(null)).toBeNull()
		expect(await cookie.parse('hmh_test=%3Cscript%3E')).toBe('<script>')
		expect(await cookie.parse('hmh_test=%E0%A4%A')).toBe('%E0%A4%A')
		expect(await cookie.parse('hmh_test=é😀')).toBe('é😀')
	})

	test('what it writes, it reads', async () => {
		for (const value of ['true', 'a b;c', 'Grüße 😀']) {
			const header = (await cookie.serialize(value)).split(';')[0]!
			expect(await cookie.parse(header)).toBe(value)
		}
	})
})

describe('the cyber banner cookie', () => {
	test('hideCyberBanner=true, a year, readable by the page script; hidden only by that value', async () => {
		expect(await hideCyberBanner(false)).toBe(`${HIDE_CYBER_BANNER}=true; Max-Age=31536000; Path=/; SameSite=Lax`)
		expect(await hideCyberBanner(true)).toBe(`${HIDE_CYBER_BANNER}=true; Max-Age=31536000; Path=/; Secure; SameSite=Lax`)
		expect(await isCyberBannerHidden('theme=dark; hideCyberBanner=true')).toBe(true)
		expect(await isCyberBannerHidden('hideCyberBanner=false')).toBe(false)
		expect(await isCyberBannerHidden(null)).toBe(false)
	})

	test("the banner's script writes the same cookie as the server", async () => {
		const doc = { cookie: '' }
		vi.stubGlobal('document', doc)
		try {
			for (const secure of [false, true]) {
				rememberCyberBannerHidden(secure)
				expect(doc.cookie).toBe(await hideCyberBanner(secure))
			}
		} finally {
			vi.unstubAllGlobals()
		}
	})
})
