import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { LOCK_SCREEN_SIZES, NO_ACTIVE_CODE } from '#app/domain/cards/options.ts'
import { DOWNLOADS_AT_ONCE, heavyWorkState } from '#app/domain/heavy-work.server.ts'
import { env } from '#app/utils/env.server.ts'
import * as fridgeSheetApi from '#app/routes/api/fridge-sheet.ts'
import * as lockScreenApi from '#app/routes/api/lock-screen.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as walletCardApi from '#app/routes/api/wallet-card.ts'
import { get, json, send } from '#tests/api.ts'
import { pngSize, readPdf } from '#tests/cards.ts'
import { call, createUser, getRequest, jsonRequest, sessionCookie } from '#tests/factories.ts'
import { claimedProfile } from '#tests/profiles.ts'

const card = (id: number | string, query = '') => `/api/medical-profiles/${id}/wallet-card.pdf${query}`
const screen = (id: number | string, query = '') => `/api/medical-profiles/${id}/lock-screen.png${query}`
const sheet = (id: number | string, query = '') => `/api/medical-profiles/${id}/fridge-sheet.pdf${query}`

/** The raw answer: the download's bytes and headers. */
async function download(handler: (args: never) => unknown, path: string, cookie: string, id: number) {
	const { result } = await call(handler, getRequest(path, cookie), { id: String(id) })
	if (!(result instanceof Response)) throw new Error(`not a Response: ${JSON.stringify(result)}`)
	return { status: result.status, headers: result.headers, body: new Uint8Array(await result.arrayBuffer()) }
}

describe('GET wallet-card.pdf, fridge-sheet.pdf and lock-screen.png', () => {
	test('the owner downloads each, made now, never kept by a cache', async () => {
		const { cookie, profileId } = await claimedProfile('Zoë O’Brien-Núñez')
		const pdf = await download(walletCardApi.loader, card(profileId, '?lang=es'), cookie, profileId)
		expect(pdf.status).toBe(200)
		expect(pdf.headers.get('content-type')).toBe('application/pdf')
		expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="hmh-wallet-card-zoe-o-brien-nunez-es.pdf"')
		expect(pdf.headers.get('cache-control')).toBe('private, no-store')
		expect(Buffer.from(pdf.body.subarray(0, 5)).toString('latin1')).toBe('%PDF-')

		const png = await download(lockScreenApi.loader, screen(profileId, '?w=1290&h=2796'), cookie, profileId)
		expect(png.status).toBe(200)
		expect(png.headers.get('content-type')).toBe('image/png')
		expect(png.headers.get('content-disposition')).toBe('attachment; filename="hmh-lock-screen-zoe-o-brien-nunez-1290x2796.png"')
		expect(png.headers.get('cache-control')).toBe('private, no-store')
		expect(pngSize(png.body)).toEqual({ width: 1290, height: 2796 })

		const fridge = await download(fridgeSheetApi.loader, sheet(profileId, '?lang=fr&paper=a4'), cookie, profileId)
		expect(fridge.status).toBe(200)
		expect(fridge.headers.get('content-type')).toBe('application/pdf')
		expect(fridge.headers.get('content-disposition')).toBe('attachment; filename="hmh-fridge-sheet-zoe-o-brien-nunez-fr-a4.pdf"')
		expect(fridge.headers.get('cache-control')).toBe('private, no-store')
		const read = await readPdf(fridge.body)
		expect([read.pages, read.pageSize]).toEqual([1, expect.stringMatching(/\(A4\)/)])
		expect(read.text).toContain('Zoë O’Brien-Núñez')
		expect(read.text).toContain('Vial of Life à l’intérieur : voir le réfrigérateur')
	})

	test('the fridge sheet: English on Letter by default, whatever the language asked for, A4 when asked', async () => {
		const { cookie, profileId } = await claimedProfile('Paper Size')
		for (const [query, name, size] of [
			['', 'hmh-fridge-sheet-paper-size-en-letter.pdf', /\(letter\)/],
			['?lang=es', 'hmh-fridge-sheet-paper-size-es-letter.pdf', /\(letter\)/],
			['?paper=a4', 'hmh-fridge-sheet-paper-size-en-a4.pdf', /\(A4\)/],
		] as const) {
			const answer = await download(fridgeSheetApi.loader, sheet(profileId, query), cookie, profileId)
			expect(answer.headers.get('content-disposition'), query).toBe(`attachment; filename="${name}"`)
			expect((await readPdf(answer.body)).pageSize, query).toMatch(size)
		}
	})

	test('the lock screen: 1170×2532 by default, and one of w or h alone picks its size', async () => {
		// Which holds only while no two offered sizes share a width or a height.
		expect(new Set(LOCK_SCREEN_SIZES.map((s) => s.width)).size).toBe(LOCK_SCREEN_SIZES.length)
		expect(new Set(LOCK_SCREEN_SIZES.map((s) => s.height)).size).toBe(LOCK_SCREEN_SIZES.length)
		const { cookie, profileId } = await claimedProfile('Default Size')
		const plain = await download(lockScreenApi.loader, screen(profileId), cookie, profileId)
		expect(pngSize(plain.body)).toEqual({ width: 1170, height: 2532 })
		const byWidth = await download(lockScreenApi.loader, screen(profileId, '?w=1440'), cookie, profileId)
		expect(pngSize(byWidth.body)).toEqual({ width: 1440, height: 3200 })
	})

	test('a visitor: 401 JSON', async () => {
		const { profileId } = await claimedProfile('Visited')
		for (const [handler, path] of [
			[walletCardApi.loader, card(profileId)],
			[fridgeSheetApi.loader, sheet(profileId)],
			[lockScreenApi.loader, screen(profileId)],
		] as const) {
			const answer = await get(handler, path, undefined, { id: String(profileId) })
			expect(answer, path).toMatchObject({ status: 401, body: { message: 'Unauthorized' } })
		}
	})

	test('another signed-in person, an unknown or a malformed id: 404, the same answer', async () => {
		const { profileId } = await claimedProfile('Not Yours')
		const stranger = await sessionCookie((await createUser()).id)
		for (const [handler, path] of [
			[walletCardApi.loader, card],
			[fridgeSheetApi.loader, sheet],
			[lockScreenApi.loader, screen],
		] as const) {
			for (const id of [String(profileId), '2000000000', 'abc', '0x10']) {
				const answer = await get(handler, path(id), stranger, { id })
				expect(answer, `${path(id)}`).toMatchObject({ status: 404, body: { message: 'Profile not found' } })
			}
		}
	})

	test('a profile with no active code: 409 with the sentence the page shows', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const created = await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Codeless' }, cookie)
		expect(created.status).toBe(201)
		const id = String(created.body.id)
		for (const [handler, path] of [
			[walletCardApi.loader, card(id)],
			[fridgeSheetApi.loader, sheet(id)],
			[lockScreenApi.loader, screen(id)],
		] as const)
			expect(await get(handler, path, cookie, { id })).toMatchObject({ status: 409, body: { message: NO_ACTIVE_CODE } })

		const { user: owner, cookie: ownerCookie, profileId } = await claimedProfile('Switched Off')
		await db.update(s.qrCodes).set({ isActive: false }).where(eq(s.qrCodes.userId, owner.id))
		expect(await get(walletCardApi.loader, card(profileId), ownerCookie, { id: String(profileId) })).toMatchObject({
			status: 409,
			body: { message: NO_ACTIVE_CODE },
		})
	})

	test('another code than the profile’s active ones: 404', async () => {
		const { cookie, profileId } = await claimedProfile('Own Code')
		const other = await claimedProfile('Their Code')
		const [theirs] = await db.select({ id: s.qrCodes.id }).from(s.qrCodes).where(eq(s.qrCodes.userId, other.user.id))
		const answer = await get(walletCardApi.loader, card(profileId, `?code=${theirs!.id}`), cookie, { id: String(profileId) })
		expect(answer).toMatchObject({ status: 404, body: { message: 'QR code not found' } })
	})

	test.each([
		['wallet card', 'lang=de'],
		['wallet card', 'lang='],
		['wallet card', 'code=abc'],
		['fridge sheet', 'lang=de'],
		['fridge sheet', 'lang=es&paper=legal'],
		['fridge sheet', 'paper=A4'],
		['fridge sheet', 'code=abc'],
		['lock screen', 'w=1000&h=2000'],
		['lock screen', 'w=1170&h=2556'],
		['lock screen', 'w=1170.0'],
		['lock screen', 'h=99999'],
		['lock screen', 'lang=EN'],
	] as const)('%s with %s: 400 JSON naming what is allowed', async (which, query) => {
		const { cookie, profileId } = await claimedProfile('Bad Input')
		const [handler, path] = (
			{
				'wallet card': [walletCardApi.loader, card],
				'fridge sheet': [fridgeSheetApi.loader, sheet],
				'lock screen': [lockScreenApi.loader, screen],
			} as const
		)[which]
		const answer = await get(handler, path(profileId, `?${query}`), cookie, { id: String(profileId) })
		expect(answer.status).toBe(400)
		if (query.startsWith('lang=es&paper') || query.startsWith('paper')) expect(answer.body.message).toBe('paper must be one of letter, a4')
		else if (query.startsWith('lang')) expect(answer.body.message).toBe('lang must be one of en, es, fr')
		else if (query.startsWith('code')) expect(answer.body.message).toContain('code must be')
		else expect(answer.body.message).toBe('The size must be one of 1170×2532, 1179×2556, 1290×2796, 1080×2400, 1440×3200 (w×h, in pixels)')
	})

	test('a GET only: other methods are 405', async () => {
		const { cookie, profileId } = await claimedProfile('Posted')
		for (const [action, path] of [
			[walletCardApi.action, card],
			[fridgeSheetApi.action, sheet],
		] as const) {
			const answer = await send(action, jsonRequest(path(profileId), {}, { cookie }), { id: String(profileId) })
			expect(answer.status).toBe(405)
			expect(answer.headers.get('allow')).toBe('GET')
		}
	})
})

describe('heavy downloads', () => {
	test('one account sending 48 lock-screen requests, 16 at a time: at most two are made at once, the rest wait their turn or are a 429 with Retry-After, none a 5xx', async () => {
		const { cookie, profileId } = await claimedProfile('Burst Owner')
		const statuses: number[] = []
		let busiest = 0
		for (let round = 0; round < 3; round++) {
			const answers = await Promise.all(
				Array.from({ length: 16 }, async () => {
					const answer = await download(lockScreenApi.loader, screen(profileId, '?w=1080'), cookie, profileId)
					busiest = Math.max(busiest, heavyWorkState().running + heavyWorkState().waiting)
					if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
					return answer.status
				}),
			)
			statuses.push(...answers)
		}
		expect(statuses.filter((status) => status >= 500)).toEqual([])
		expect(new Set(statuses)).toEqual(new Set([200, 429]))
		expect(statuses.filter((status) => status === 200)).toHaveLength(env.RATE_LIMIT_HEAVY_PER_MINUTE)
		expect(busiest).toBeLessThanOrEqual(DOWNLOADS_AT_ONCE)
	})
})
