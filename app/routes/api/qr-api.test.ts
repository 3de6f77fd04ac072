import { Resvg } from '@resvg/resvg-js'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { checkPin, claimCode } from '#app/domain/claims/claims.server.ts'
import { PREVIEW_TOKEN } from '#app/domain/qr/manage.server.ts'
import { newResponderKey, reportHelping } from '#app/domain/responder/helping.server.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as profileCodesApi from '#app/routes/api/profile-qr-codes.ts'
import * as refreshApi from '#app/routes/api/profile-update-qr-codes.ts'
import * as imageApi from '#app/routes/api/qr-code-image.ts'
import * as previewApi from '#app/routes/api/qr-code-preview.ts'
import * as scansApi from '#app/routes/api/qr-code-scans.ts'
import * as toggleApi from '#app/routes/api/qr-code-toggle.ts'
import * as codesApi from '#app/routes/api/qr-codes.ts'
import * as scan from '#app/routes/scan/scan.ts'
import { get, json, send, type Endpoint } from '#tests/api.ts'
import { call, claimant, createCode, createUser, getRequest, jsonRequest, sessionCookie, testAddress } from '#tests/factories.ts'
import { decodeQr } from '#tests/zbar.ts'

async function raw(handler: Endpoint, path: string, cookie: string, params: Record<string, string>) {
	const response = (await call(handler, getRequest(path, cookie), params)).result as Response
	return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

const decode = decodeQr
const decodeSvg = (svg: string) => decode(new Resvg(svg).render().asPng())

async function person(overrides: Parameters<typeof createUser>[0] = {}) {
	const user = await createUser(overrides)
	const cookie = await sessionCookie(user.id)
	const created = await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada', lastName: 'Lovelace' }, cookie)
	expect(created.status).toBe(201)
	const profileId = created.body.id as number
	return { user, cookie, profileId, pid: String(profileId) }
}

const LOOK = { width: 400, color: '#2563EB', textColor: '#000000', margin: 3, backgroundColor: '#FFFFFF', circular: false }
const generateBody = (profileId: unknown, customization: unknown = LOOK) => ({
	type: 'emergency',
	accessLevel: 'full',
	expiresIn: 'never',
	customization,
	profileId,
})

/** A legacy user with a self-generated code. */
async function legacyWithCode() {
	const p = await person({ isGrandfathered: true })
	const generated = await json(codesApi.action, 'POST', '/api/qr-codes', generateBody(p.profileId), p.cookie)
	expect(generated.status).toBe(201)
	const id = String(generated.body.id)
	return { ...p, codeId: generated.body.id as number, id }
}

/** A person without legacy access whose claimed sticker is linked to their profile. */
async function claimedSticker() {
	const p = await person()
	const sticker = await createCode()
	await claimCode(claimant(p.user.id), sticker.pin, { profileId: p.profileId })
	return { ...p, sticker, codeId: sticker.id, id: String(sticker.id) }
}

const codeRow = (id: number) => db.query.qrCodes.findFirst({ where: eq(s.qrCodes.id, id) })

async function scanPage(token: string) {
	const response = (await call(scan.loader, new Request(`http://localhost:3000/scan/${token}`), { token })).result as Response
	return response.text()
}

describe('signed out', () => {
	test('every endpoint answers 401 JSON', async () => {
		const id = { id: '1' }
		const attempts: Array<[Endpoint, Request, Record<string, string>?]> = [
			[codesApi.loader, getRequest('/api/qr-codes')],
			[codesApi.loader, getRequest('/api/qr-codes/1'), id],
			[codesApi.action, jsonRequest('/api/qr-codes', generateBody(1))],
			[codesApi.action, jsonRequest('/api/qr-codes/1', LOOK, { method: 'PATCH' }), id],
			[codesApi.action, jsonRequest('/api/qr-codes/1', '', { method: 'DELETE' }), id],
			[previewApi.action, jsonRequest('/api/qr-codes/preview', { ...generateBody(1), preview: true })],
			[toggleApi.action, jsonRequest('/api/qr-codes/1/toggle', '', { method: 'PATCH' }), id],
			[scansApi.loader, getRequest('/api/qr-codes/1/scans'), id],
			[imageApi.loader, getRequest('/api/qr-codes/1/download'), id],
			[imageApi.loader, getRequest('/api/qr-codes/1/image'), id],
			[profileCodesApi.loader, getRequest('/api/profiles/1/qr-codes'), id],
			[refreshApi.action, jsonRequest('/api/profiles/1/update-qr-codes', ''), id],
		]
		for (const [handler, request, params] of attempts) {
			expect(await send(handler, request, params), `${request.method} ${request.url}`).toMatchObject({
				status: 401,
				body: { message: 'Unauthorized' },
			})
		}
	})
})

describe('POST /api/qr-codes', () => {
	test('a legacy user generates a code, then the same call updates it', async () => {
		const { user, cookie, profileId } = await person({ isGrandfathered: true })
		const first = await json(codesApi.action, 'POST', '/api/qr-codes', generateBody(profileId), cookie)
		expect(first).toMatchObject({ status: 201, body: { isUpdated: false, message: 'QR code generated successfully' } })
		expect(first.headers.get('cache-control')).toBe('private, no-store')
		const row = await codeRow(first.body.id as number)
		expect(row).toMatchObject({
			userId: user.id,
			medicalProfileId: profileId,
			source: 'self',
			type: 'emergency',
			accessLevel: 'full',
			expiresAt: null,
		})
		expect(row?.customization).toMatchObject({ color: '#2563EB', circular: false })
		expect(await decodeSvg(first.body.qrCodeSvg as string)).toBe(`http://localhost:3000/scan/${row!.token}`)

		const second = await json(
			codesApi.action,
			'POST',
			'/api/qr-codes',
			generateBody(profileId, { color: '#16a34a', customText: 'ADA L', transparentBackground: true }),
			cookie,
		)
		expect(second).toMatchObject({
			status: 200,
			body: { id: first.body.id, isUpdated: true, message: 'QR code updated with your latest medical information' },
		})
		expect(second.body.qrCodeSvg).toContain('#16A34A')
		expect((await codeRow(row!.id))?.customization).toEqual({
			color: '#16A34A',
			textColor: '#000000',
			circular: true,
			customText: 'ADA L',
			transparentBackground: true,
		})
		expect(await db.select().from(s.qrCodes).where(eq(s.qrCodes.userId, user.id))).toHaveLength(1)
	})

	test("without legacy access and without a code: 403 with the domain's message, nothing created", async () => {
		const { user, cookie, profileId } = await person()
		const refused = await json(codesApi.action, 'POST', '/api/qr-codes', generateBody(profileId), cookie)
		expect(refused).toMatchObject({
			status: 403,
			body: { message: 'Self-generated QR codes are for legacy accounts. Claim a sticker with its PIN or request a free QR code.' },
		})
		expect(await db.select().from(s.qrCodes).where(eq(s.qrCodes.userId, user.id))).toHaveLength(0)
	})

	test("without a profileId (spec 001 §7's payload) the code is the own profile's; with no own profile it is refused", async () => {
		const { user, cookie, profileId } = await person({ isGrandfathered: true })
		const { profileId: _, ...specBody } = generateBody(undefined)
		expect(await json(codesApi.action, 'POST', '/api/qr-codes', specBody, cookie)).toMatchObject({ status: 201 })
		expect(await db.select().from(s.qrCodes).where(eq(s.qrCodes.userId, user.id))).toEqual([
			expect.objectContaining({ medicalProfileId: profileId }),
		])
		const newcomer = await createUser({ isGrandfathered: true })
		expect(await json(codesApi.action, 'POST', '/api/qr-codes', specBody, await sessionCookie(newcomer.id))).toMatchObject({
			status: 400,
			body: { message: 'Please create your medical profile first' },
		})
	})

	test('fixed values, a profile and a valid customisation are required; bad input is a 400 and writes nothing', async () => {
		const { user, cookie, profileId } = await person({ isGrandfathered: true })
		const post = (body: unknown) => json(codesApi.action, 'POST', '/api/qr-codes', body, cookie)
		for (const wrong of [{ type: 'standard' }, { accessLevel: 'basic' }, { expiresIn: '30d' }]) {
			const response = await post({ ...generateBody(profileId), ...wrong })
			const [field] = Object.keys(wrong)
			expect(response.status, field).toBe(400)
			expect(response.body.errors?.[field!]).toHaveLength(1)
		}
		for (const missing of ['', 'abc', 0]) {
			expect(await post(generateBody(missing))).toMatchObject({
				status: 400,
				body: { message: 'No medical profile selected', errors: { profileId: ['No medical profile selected'] } },
			})
		}
		expect(await post(generateBody(profileId, { customText: 'ABCDEFGHIJKLMNOPQ' }))).toMatchObject({
			status: 400,
			body: { message: 'Too long: 17/16 letters', errors: { customText: ['Too long: 17/16 letters'] } },
		})
		expect(await post(generateBody(profileId, { color: '#123456' }))).toMatchObject({
			status: 400,
			body: { errors: { color: ['Please choose a QR colour from the palette'] } },
		})
		expect((await post(generateBody(profileId, { width: 5000 }))).status).toBe(400)
		expect((await post(generateBody(profileId, 'red'))).status).toBe(400)
		for (const body of ['{not json', '[1]']) expect((await post(body)).status).toBe(400)
		expect(await db.select().from(s.qrCodes).where(eq(s.qrCodes.userId, user.id))).toHaveLength(0)
	})
})

describe('GET /api/qr-codes and /api/profiles/{id}/qr-codes', () => {
	test("the caller's codes in the dashboard shape, with scan counts; one profile's codes", async () => {
		const a = await legacyWithCode()
		const code = (await codeRow(a.codeId))!
		await scanPage(code.token)
		const list = await get(codesApi.loader, '/api/qr-codes', a.cookie)
		expect(list.status).toBe(200)
		expect(list.headers.get('cache-control')).toBe('private, no-store')
		expect(list.body).toEqual([
			{
				id: a.codeId,
				type: 'emergency',
				token: code.token,
				accessLevel: 'full',
				qrData: `http://localhost:3000/scan/${code.token}`,
				createdAt: code.createdAt.toISOString(),
				expiresAt: null,
				isActive: true,
				profile: { id: a.profileId, fullName: 'Ada Lovelace', relationshipToUser: 'self' },
				customization: { color: '#2563EB', textColor: '#000000', circular: false, transparentBackground: false },
				scanCount: 1,
				lastScanAt: expect.any(String),
			},
		])
		expect((await get(codesApi.loader, `/api/qr-codes/${a.id}`, a.cookie, { id: a.id })).body).toMatchObject({
			id: a.codeId,
			qrData: `http://localhost:3000/scan/${code.token}`,
		})

		const kid = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ fullName: 'Kid', relationshipToUser: 'child', pin: (await createCode()).pin },
			a.cookie,
		)
		const kidId = String(kid.body.id)
		const kidCodes = await get(profileCodesApi.loader, `/api/profiles/${kidId}/qr-codes`, a.cookie, { id: kidId })
		expect(kidCodes.body).toEqual([
			expect.objectContaining({
				profile: { id: kid.body.id, fullName: 'Kid', relationshipToUser: 'child' },
				scanCount: 0,
				lastScanAt: null,
			}),
		])
		expect((await get(profileCodesApi.loader, `/api/profiles/${a.pid}/qr-codes`, a.cookie, { id: a.pid })).body).toEqual([
			expect.objectContaining({ id: a.codeId }),
		])
		expect((await get(codesApi.loader, '/api/qr-codes', a.cookie)).body).toHaveLength(2)
	})
})

describe('POST /api/qr-codes/preview', () => {
	test("spec 002's preview body renders the profile's code URL, or a placeholder before it has one; nothing is written", async () => {
		const p = await person({ isGrandfathered: true })
		const preview = (body: Record<string, unknown>) =>
			json(previewApi.action, 'POST', '/api/qr-codes/preview', { ...body, preview: true }, p.cookie)
		// Spec 002 §3 sends accessLevel basic with the preview.
		const before = await preview({ ...generateBody(p.profileId), accessLevel: 'basic' })
		expect(before.status).toBe(200)
		expect(Object.keys(before.body)).toEqual(['qrCodeSvg'])
		expect(await decodeSvg(before.body.qrCodeSvg as string)).toBe(`http://localhost:3000/scan/${PREVIEW_TOKEN}`)
		expect(await db.select().from(s.qrCodes).where(eq(s.qrCodes.userId, p.user.id))).toHaveLength(0)

		const generated = await json(codesApi.action, 'POST', '/api/qr-codes', generateBody(p.profileId), p.cookie)
		const row = (await codeRow(generated.body.id as number))!
		const after = await preview(generateBody(p.profileId, { color: '#EC4899', circular: true, customText: 'ADA' }))
		expect(after.body.qrCodeSvg).toContain('#EC4899')
		expect(await decodeSvg(after.body.qrCodeSvg as string)).toBe(`http://localhost:3000/scan/${row.token}`)
		expect(await codeRow(row.id)).toEqual(row)

		expect(await preview(generateBody(p.profileId, { customText: 'ABCDEFGHIJKLMNOPQ' }))).toMatchObject({
			status: 400,
			body: { message: 'Too long: 17/16 letters' },
		})
		expect((await preview({ ...generateBody(p.profileId), type: 'vip' })).status).toBe(400)
		expect((await preview({ customization: LOOK })).status).toBe(200)
	})
})

describe('PATCH /api/qr-codes/{id}', () => {
	test('a user with a claimed sticker restyles it; fields left out keep their values', async () => {
		const c = await claimedSticker()
		const patch = (body: unknown) => json(codesApi.action, 'PATCH', `/api/qr-codes/${c.id}`, body, c.cookie, { id: c.id })
		const styled = await patch({ customization: { color: '#9333EA', circular: false, customText: 'CALL MOM' } })
		expect(styled).toMatchObject({
			status: 200,
			body: { id: c.codeId, qrData: c.sticker.scanUrl, customization: { color: '#9333EA', circular: false, customText: 'CALL MOM' } },
		})
		expect(await decodeSvg(styled.body.qrCodeSvg as string)).toBe(c.sticker.scanUrl)
		expect(await patch({ color: '#0EA5E9' })).toMatchObject({
			status: 200,
			body: { customization: { color: '#0EA5E9', circular: false, customText: 'CALL MOM' } },
		})
		expect((await patch({ customization: 'blue' })).status).toBe(400)
		expect(await patch({ customText: 'ABCDEFGHIJKLMNOPQ' })).toMatchObject({ status: 400, body: { message: 'Too long: 17/16 letters' } })
		expect((await codeRow(c.codeId))?.customization).toMatchObject({ color: '#0EA5E9' })
		// Generating for the profile updates this sticker rather than refusing.
		const generated = await json(codesApi.action, 'POST', '/api/qr-codes', generateBody(c.profileId), c.cookie)
		expect(generated).toMatchObject({ status: 200, body: { id: c.codeId, isUpdated: true } })
	})
})

describe('PATCH /api/qr-codes/{id}/toggle', () => {
	test('flips isActive; the responder page follows', async () => {
		const c = await claimedSticker()
		const toggle = () => json(toggleApi.action, 'PATCH', `/api/qr-codes/${c.id}/toggle`, '', c.cookie, { id: c.id })
		expect(await scanPage(c.sticker.token)).toContain('Ada Lovelace')
		expect(await toggle()).toMatchObject({
			status: 200,
			body: { isActive: false, title: 'QR Code Deactivated', message: 'Your QR code is temporarily disabled' },
		})
		const off = await scanPage(c.sticker.token)
		expect(off).toContain('This code is not active')
		expect(off).not.toContain('Lovelace')
		expect(await toggle()).toMatchObject({
			status: 200,
			body: { isActive: true, title: 'QR Code Activated', message: 'Your QR code is now active and can be scanned' },
		})
		expect(await scanPage(c.sticker.token)).toContain('Ada Lovelace')
	})

	test("a toggle racing the sticker's deletion answers 200 or 404, never 500; the sticker ends unclaimed", async () => {
		const c = await claimedSticker()
		const [toggled, deleted] = await Promise.all([
			json(toggleApi.action, 'PATCH', `/api/qr-codes/${c.id}/toggle`, '', c.cookie, { id: c.id }),
			json(codesApi.action, 'DELETE', `/api/qr-codes/${c.id}`, '', c.cookie, { id: c.id }),
		])
		expect(deleted.status).toBe(200)
		expect([200, 404]).toContain(toggled.status)
		expect(await json(toggleApi.action, 'PATCH', `/api/qr-codes/${c.id}/toggle`, '', c.cookie, { id: c.id })).toMatchObject({ status: 404 })
		expect(await codeRow(c.sticker.id)).toMatchObject({ userId: null, medicalProfileId: null, claimedAt: null })
	})
})

describe('DELETE /api/qr-codes/{id}', () => {
	test('a self-generated code is removed with its scans', async () => {
		const a = await legacyWithCode()
		await scanPage((await codeRow(a.codeId))!.token)
		const deleted = await json(codesApi.action, 'DELETE', `/api/qr-codes/${a.id}`, '', a.cookie, { id: a.id })
		expect(deleted).toMatchObject({ status: 200, body: { success: true, message: 'QR code deleted successfully' } })
		expect(await codeRow(a.codeId)).toBeUndefined()
		expect(await db.select().from(s.qrScans).where(eq(s.qrScans.qrCodeId, a.codeId))).toHaveLength(0)
		expect((await json(codesApi.action, 'DELETE', `/api/qr-codes/${a.id}`, '', a.cookie, { id: a.id })).status).toBe(404)
	})

	test('a claimed sticker returns to unclaimed: no owner, profile, look or scan history; its PIN claims it again', async () => {
		const c = await claimedSticker()
		await scanPage(c.sticker.token)
		await json(codesApi.action, 'PATCH', `/api/qr-codes/${c.id}`, { ...LOOK, customText: 'Ada' }, c.cookie, { id: c.id })
		const deleted = await json(codesApi.action, 'DELETE', `/api/qr-codes/${c.id}`, '', c.cookie, { id: c.id })
		expect(deleted).toMatchObject({ status: 200, body: { success: true, message: 'QR code deleted successfully' } })
		expect(await codeRow(c.codeId)).toMatchObject({
			userId: null,
			medicalProfileId: null,
			customization: null,
			claimedAt: null,
			pin: c.sticker.pin,
		})
		expect(await db.select().from(s.qrScans).where(eq(s.qrScans.qrCodeId, c.codeId))).toEqual([])
		const page = await scanPage(c.sticker.token)
		expect(page).toContain('This QR code has not been activated yet')
		expect(page).not.toContain('Ada Lovelace')
		expect((await checkPin(c.sticker.pin, { address: testAddress() })).valid).toBe(true)
		const again = await createUser()
		expect(await claimCode(claimant(again.id), c.sticker.pin)).toMatchObject({ qrCodeId: c.codeId })
		expect(await scanPage(c.sticker.token)).not.toContain('Ada Lovelace')
	})
})

describe('images', () => {
	test('download: a PNG named by shape, id and date that decodes to the scan URL; SVG on request', async () => {
		const a = await legacyWithCode()
		const { token } = (await codeRow(a.codeId))!
		const date = new Date().toISOString().slice(0, 10)
		const png = await raw(imageApi.loader, `/api/qr-codes/${a.id}/download`, a.cookie, { id: a.id })
		expect(png.status).toBe(200)
		expect(png.headers.get('content-type')).toBe('image/png')
		expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
		// The code was generated square: that is its own shape.
		expect(png.headers.get('content-disposition')).toBe(`attachment; filename="hmh-qr-square-${a.codeId}-${date}.png"`)
		expect(await decode(png.bytes)).toBe(`http://localhost:3000/scan/${token}`)

		const circular = await raw(imageApi.loader, `/api/qr-codes/${a.id}/download?shape=circular`, a.cookie, { id: a.id })
		expect(circular.headers.get('content-disposition')).toBe(`attachment; filename="hmh-qr-circular-${a.codeId}-${date}.png"`)
		expect(await decode(circular.bytes)).toBe(`http://localhost:3000/scan/${token}`)

		const svg = await raw(imageApi.loader, `/api/qr-codes/${a.id}/download?format=svg&shape=circular`, a.cookie, { id: a.id })
		expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
		expect(svg.headers.get('content-disposition')).toBe(`attachment; filename="hmh-qr-circular-${a.codeId}-${date}.svg"`)
		expect(svg.bytes.toString()).toContain('<svg')
		expect((await get(imageApi.loader, `/api/qr-codes/${a.id}/download?shape=oval`, a.cookie, { id: a.id })).status).toBe(400)
	})

	test('image: an inline PNG thumbnail, 120 to 1000 px wide, cached privately for a minute', async () => {
		const a = await legacyWithCode()
		const thumb = await raw(imageApi.loader, `/api/qr-codes/${a.id}/image?size=200`, a.cookie, { id: a.id })
		expect(thumb.status).toBe(200)
		expect(thumb.headers.get('content-type')).toBe('image/png')
		expect(thumb.headers.get('content-disposition')).toBe('inline')
		expect(thumb.headers.get('cache-control')).toBe('private, max-age=60')
		expect(thumb.bytes.readUInt32BE(16)).toBe(200)
		expect((await raw(imageApi.loader, `/api/qr-codes/${a.id}/image`, a.cookie, { id: a.id })).bytes.readUInt32BE(16)).toBe(400)
		for (const size of ['119', '1001', 'big'])
			expect((await get(imageApi.loader, `/api/qr-codes/${a.id}/image?size=${size}`, a.cookie, { id: a.id })).status).toBe(400)
	})
})

describe('scans and refresh', () => {
	test("GET /api/qr-codes/{id}/scans lists the code's scans, newest first", async () => {
		const c = await claimedSticker()
		const scans = () => get(scansApi.loader, `/api/qr-codes/${c.id}/scans`, c.cookie, { id: c.id })
		expect(await scans()).toMatchObject({ status: 200, body: [] })
		await scanPage(c.sticker.token)
		await scanPage(c.sticker.token)
		const list = (await scans()).body as unknown as Array<{ scannedAt: string; isEmergencyAccess: boolean }>
		expect(list).toHaveLength(2)
		expect(list[0]!.scannedAt >= list[1]!.scannedAt).toBe(true)
		expect(list[0]).toMatchObject({ scannerType: 'link_preview', isEmergencyAccess: false, medicalFacility: null })
	})

	test('GET /api/qr-codes/{id}/scans tells the owner of an "I\'m helping" emergency access and the hospital named', async () => {
		const c = await claimedSticker()
		const helping = await reportHelping(
			c.sticker.token,
			newResponderKey(),
			{ hospital: "St. Mary's" },
			{ userAgent: null, address: testAddress() },
		)
		expect(helping).toMatchObject({ update: false, held: false })
		const list = (await get(scansApi.loader, `/api/qr-codes/${c.id}/scans`, c.cookie, { id: c.id })).body as unknown as unknown[]
		expect(list).toEqual([
			expect.objectContaining({ scannerType: 'emergency_responder', isEmergencyAccess: true, medicalFacility: "St. Mary's" }),
		])
	})

	test("POST /api/profiles/{id}/update-qr-codes counts the profile's codes and confirms its information", async () => {
		const c = await claimedSticker()
		await claimCode(claimant(c.user.id), (await createCode()).pin, { profileId: c.profileId })
		const refreshed = await json(refreshApi.action, 'POST', `/api/profiles/${c.pid}/update-qr-codes`, '', c.cookie, { id: c.pid })
		expect(refreshed).toMatchObject({ status: 200, body: { updated: 2, message: 'Updated 2 QR codes with current medical information' } })
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, c.profileId) }))?.confirmedAt).toBeInstanceOf(Date)
	})
})

describe('methods and ids', () => {
	test('wrong methods are 405; malformed ids read as unknown (404)', async () => {
		const a = await legacyWithCode()
		const id = { id: a.id }
		const wrong: Array<[Endpoint, Request, Record<string, string>?]> = [
			[codesApi.action, jsonRequest('/api/qr-codes', {}, { cookie: a.cookie, method: 'PUT' })],
			[codesApi.action, jsonRequest(`/api/qr-codes/${a.id}`, {}, { cookie: a.cookie, method: 'POST' }), id],
			[previewApi.loader, getRequest('/api/qr-codes/preview', a.cookie)],
			[toggleApi.loader, getRequest(`/api/qr-codes/${a.id}/toggle`, a.cookie), id],
			[toggleApi.action, jsonRequest(`/api/qr-codes/${a.id}/toggle`, '', { cookie: a.cookie }), id],
			[scansApi.action, jsonRequest(`/api/qr-codes/${a.id}/scans`, '', { cookie: a.cookie }), id],
			[imageApi.action, jsonRequest(`/api/qr-codes/${a.id}/download`, '', { cookie: a.cookie }), id],
			[profileCodesApi.action, jsonRequest(`/api/profiles/${a.pid}/qr-codes`, '', { cookie: a.cookie }), { id: a.pid }],
			[refreshApi.loader, getRequest(`/api/profiles/${a.pid}/update-qr-codes`, a.cookie), { id: a.pid }],
		]
		for (const [handler, request, params] of wrong)
			expect((await send(handler, request, params)).status, `${request.method} ${request.url}`).toBe(405)
		for (const bad of ['abc', '0', '1.5', '99999999999']) {
			expect(await get(codesApi.loader, `/api/qr-codes/${bad}`, a.cookie, { id: bad })).toMatchObject({
				status: 404,
				body: { message: 'QR code not found' },
			})
			expect((await json(toggleApi.action, 'PATCH', `/api/qr-codes/${bad}/toggle`, '', a.cookie, { id: bad })).status).toBe(404)
			expect((await get(profileCodesApi.loader, `/api/profiles/${bad}/qr-codes`, a.cookie, { id: bad })).status).toBe(404)
		}
		expect((await codeRow(a.codeId))?.isActive).toBe(true)
	})
})

describe('ownership: another person gets 404, as for an unknown id, and changes nothing', () => {
	test("every endpoint on A's code and profile", async () => {
		const a = await legacyWithCode()
		const sticker = await createCode()
		await claimCode(claimant(a.user.id), sticker.pin, { profileId: a.profileId })
		const stickerId = String(sticker.id)
		await scanPage(sticker.token)
		const snapshot = async () =>
			JSON.stringify([
				await db.select().from(s.qrCodes).where(eq(s.qrCodes.userId, a.user.id)).orderBy(s.qrCodes.id),
				await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, a.profileId) }),
				await db
					.select()
					.from(s.qrScans)
					.where(and(eq(s.qrScans.qrCodeId, sticker.id))),
			])
		const before = await snapshot()

		const b = await person({ isGrandfathered: true })
		const attempts = (codeId: string, profileId: string): Array<[Endpoint, Request, Record<string, string>]> => {
			const code = { id: codeId }
			const profile = { id: profileId }
			return [
				[codesApi.loader, getRequest(`/api/qr-codes/${codeId}`, b.cookie), code],
				[
					codesApi.action,
					jsonRequest(`/api/qr-codes/${codeId}`, { customization: { color: '#000000' } }, { cookie: b.cookie, method: 'PATCH' }),
					code,
				],
				[codesApi.action, jsonRequest(`/api/qr-codes/${codeId}`, '', { cookie: b.cookie, method: 'DELETE' }), code],
				[toggleApi.action, jsonRequest(`/api/qr-codes/${codeId}/toggle`, '', { cookie: b.cookie, method: 'PATCH' }), code],
				[scansApi.loader, getRequest(`/api/qr-codes/${codeId}/scans`, b.cookie), code],
				[imageApi.loader, getRequest(`/api/qr-codes/${codeId}/download`, b.cookie), code],
				[imageApi.loader, getRequest(`/api/qr-codes/${codeId}/download?format=svg`, b.cookie), code],
				[imageApi.loader, getRequest(`/api/qr-codes/${codeId}/image`, b.cookie), code],
				[profileCodesApi.loader, getRequest(`/api/profiles/${profileId}/qr-codes`, b.cookie), profile],
				[refreshApi.action, jsonRequest(`/api/profiles/${profileId}/update-qr-codes`, '', { cookie: b.cookie }), profile],
				[codesApi.action, jsonRequest('/api/qr-codes', generateBody(Number(profileId)), { cookie: b.cookie }), {}],
				[
					previewApi.action,
					jsonRequest('/api/qr-codes/preview', { ...generateBody(Number(profileId)), preview: true }, { cookie: b.cookie }),
					{},
				],
			]
		}
		const unknown = '2147483647'
		for (const codeId of [a.id, stickerId]) {
			const foreign = attempts(codeId, a.pid)
			const nobody = attempts(unknown, unknown)
			for (const [i, [handler, request, params]] of foreign.entries()) {
				const response = await send(handler, request, params)
				expect(response.status, `${request.method} ${request.url}`).toBe(404)
				const [unknownHandler, unknownRequest, unknownParams] = nobody[i]!
				expect(response.body, `${request.method} ${request.url}`).toEqual((await send(unknownHandler, unknownRequest, unknownParams)).body)
				expect(JSON.stringify(response.body)).not.toMatch(/Lovelace|scan\//)
			}
		}
		expect(await snapshot()).toBe(before)
		expect((await get(codesApi.loader, '/api/qr-codes', b.cookie)).body).toEqual([])
		expect(await db.select().from(s.qrCodes).where(eq(s.qrCodes.userId, b.user.id))).toHaveLength(0)
	})
})
