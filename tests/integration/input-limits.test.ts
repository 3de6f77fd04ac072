import { describe, expect, test } from 'vitest'
import { eq } from 'drizzle-orm'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import * as allergiesApi from '#app/routes/api/allergies.ts'
import * as createOrderApi from '#app/routes/api/create-shop-order.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as pinClaimApi from '#app/routes/api/pin-claim.ts'
import * as login from '#app/routes/auth/login.tsx'
import * as qrCodes from '#app/routes/qr/qr-codes.tsx'
import * as shop from '#app/routes/shop/shop.tsx'
import { json, send } from '#tests/api.ts'
import { call, createCode, createUser, formRequest, sessionCookie, unwrap } from '#tests/factories.ts'

async function person() {
	const user = await createUser()
	const cookie = await sessionCookie(user.id)
	const created = await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada', lastName: 'Lovelace' }, cookie)
	return { user, cookie, profileId: created.body.id as number }
}

describe('ids are decimal integers in range, nothing else', () => {
	test.each([true, '0x10', '1e3', '1.5', -1, 0, 2_147_483_648, '99999999999', ' 7', [1], { id: 1 }])(
		'medicalProfileId %j is a 400 naming the field',
		async (value) => {
			const p = await person()
			const code = await createCode()
			const answer = await json(pinClaimApi.action, 'POST', '/api/pin/claim', { pin: code.pin, medicalProfileId: value }, p.cookie)
			expect(answer.status).toBe(400)
			expect(answer.body.errors).toHaveProperty('medicalProfileId')
			expect((await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, code.pin) }))?.userId).toBeNull()
		},
	)

	test('an id written in decimal digits, as a string or a number, is accepted', async () => {
		const p = await person()
		for (const value of [p.profileId, String(p.profileId)]) {
			const answer = await json(
				pinClaimApi.action,
				'POST',
				'/api/pin/claim',
				{ pin: (await createCode()).pin, medicalProfileId: value },
				p.cookie,
			)
			expect(answer.status).toBe(200)
		}
	})

	test.each([true, '0x10', '1e3', 2_147_483_648])('a shop order naming product %j is a 400', async (productId) => {
		const p = await person()
		const answer = await json(
			createOrderApi.action,
			'POST',
			'/api/create-shop-order',
			{ items: [{ productId, quantity: 1 }], selectedQrCodeId: '1' },
			p.cookie,
		)
		expect(answer.status).toBe(400)
	})
})

describe('booleans are booleans', () => {
	test.each(['yes', 1, 'on', null, 'TRUE'])('isScannable %j is a 400 naming the field, and nothing changes', async (value) => {
		const p = await person()
		const answer = await json(profileApi.action, 'PATCH', `/api/medical-profile/${p.profileId}`, { isScannable: value }, p.cookie, {
			id: String(p.profileId),
		})
		expect(answer.status).toBe(400)
		expect(answer.body.errors).toEqual({ isScannable: ['isScannable must be true or false'] })
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, p.profileId) }))?.isScannable).toBe(true)
	})

	test.each([false, 'false'])('isScannable %j turns scanning off', async (value) => {
		const p = await person()
		const answer = await json(profileApi.action, 'PATCH', `/api/medical-profile/${p.profileId}`, { isScannable: value }, p.cookie, {
			id: String(p.profileId),
		})
		expect(answer.status).toBe(200)
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, p.profileId) }))?.isScannable).toBe(false)
	})
})

describe('JSON bodies', () => {
	const raw = (body: BodyInit, type: string | null, cookie: string) =>
		new Request('http://localhost:3000/api/allergies', {
			method: 'POST',
			headers: { cookie, ...(type ? { 'content-type': type } : {}) },
			body,
		})

	test.each(['text/plain', 'application/xml', 'image/png'])('%s is a 415', async (type) => {
		const p = await person()
		const answer = await send(allergiesApi.action, raw('{"allergen":"Peanuts"}', type, p.cookie))
		expect(answer.status).toBe(415)
		expect(answer.body.message).toBe('The request body must be JSON (Content-Type: application/json)')
	})

	test('a JSON body over 1 MiB is a 413, declared or streamed, and nothing is stored', async () => {
		const p = await person()
		const big = JSON.stringify({ medicalProfileId: p.profileId, allergen: 'x'.repeat(1024 * 1024 + 10) })
		expect((await send(allergiesApi.action, raw(big, 'application/json', p.cookie))).status).toBe(413)
		const streamed = new ReadableStream({
			start(controller) {
				for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"allergen":"' : 'x'.repeat(100_000)))
				controller.close()
			},
		})
		const request = new Request('http://localhost:3000/api/allergies', {
			method: 'POST',
			headers: { cookie: p.cookie, 'content-type': 'application/json' },
			body: streamed,
			duplex: 'half',
		} as RequestInit)
		expect((await send(allergiesApi.action, request)).status).toBe(413)
		expect(await db.query.allergies.findMany({ where: eq(s.allergies.medicalProfileId, p.profileId) })).toEqual([])
	})

	test('malformed JSON, or JSON that is not an object, is a 400', async () => {
		const p = await person()
		for (const body of ['{"allergen":', '[1,2]', '"text"', 'null'])
			expect((await send(allergiesApi.action, raw(body, 'application/json', p.cookie))).status).toBe(400)
	})
})

describe('long custom text is refused before it is counted character by character', () => {
	const huge = 'é'.repeat(1_000_000)

	// How fast is the fuzz suite's and the benchmarks' question; a shared machine makes any time limit here flaky.
	test('1 MB to the shop (no cookie) is a 400 that gives the length, not a count of letters', async () => {
		const result = await unwrap((await call(shop.action, formRequest('/shop', { productId: '1', quantity: '1', customText: huge }))).result)
		expect(result.status).toBe(400)
		expect(JSON.stringify(result.body)).toContain('Too long: 1000000/25 characters')
	})

	test('1 MB through the QR tab’s customize form is a 400, and the code is unchanged', async () => {
		const p = await person()
		const code = await createCode()
		await json(pinClaimApi.action, 'POST', '/api/pin/claim', { pin: code.pin, medicalProfileId: p.profileId }, p.cookie)
		const row = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, code.pin) })
		const result = await unwrap(
			(
				await call(
					qrCodes.action,
					formRequest('/dashboard/qr-codes', { intent: 'customize', qrCodeId: String(row!.id), customText: huge }, { cookie: p.cookie }),
				)
			).result,
		)
		expect(result.status).toBe(400)
		expect((await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.id, row!.id) }))?.customization).toEqual(row!.customization)
	})
})

describe('NUL characters', () => {
	test('an e-mail holding one on the sign-in form is refused like any wrong sign-in, never a server error', async () => {
		const user = await createUser()
		const answer = await unwrap((await call(login.action, formRequest('/login', { email: `${user.email}\u0000`, password: 'x' }))).result)
		expect(answer.status).toBe(400)
	})

	test('JSON strings lose them before the database', async () => {
		const p = await person()
		const answer = await json(
			allergiesApi.action,
			'POST',
			'/api/allergies',
			{ medicalProfileId: p.profileId, allergen: 'Pea\u0000nuts', severity: 'Severe' },
			p.cookie,
		)
		expect(answer.status).toBe(201)
		const [row] = await db.query.allergies.findMany({ where: eq(s.allergies.medicalProfileId, p.profileId) })
		expect(row?.allergen).toBe('Peanuts')
	})
})
