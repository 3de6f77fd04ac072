import { Resvg } from '@resvg/resvg-js'
import { and, eq, sql } from 'drizzle-orm'
import { compactDecrypt } from 'jose'
import { describe, expect, test } from 'vitest'
import { db, rowsOf } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { listHealthLinks } from '#app/domain/sharing/health-links.server.ts'
import type { IpsBundle } from '#app/domain/sharing/ips.ts'
import { PASSCODE_ATTEMPTS } from '#app/domain/sharing/options.ts'
import { decodeShlink } from '#app/domain/sharing/shlink.ts'
import { env } from '#app/utils/env.server.ts'
import { appHandler } from '#tests/app-handler.ts'
import { sessionCookie, testAddress } from '#tests/factories.ts'
import { ipsProblems, sectionResources } from '#tests/fhir.ts'
import { fullProfile } from '#tests/profiles.ts'
import { decodeQr } from '#tests/zbar.ts'

const VIEWER = 'https://viewer.example.org'

/** A request as a viewer on another site sends it: its own Origin, no cookie. */
async function viewer(method: string, url: string, body?: unknown, init: { address?: string; headers?: Record<string, string> } = {}) {
	const handle = await appHandler()
	const headers: Record<string, string> = { origin: VIEWER, ...init.headers }
	if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json'
	const request = new Request(new URL(url, env.PUBLIC_URL), {
		method,
		headers,
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	})
	const response = await handle(request, init.address ?? testAddress())
	const text = await response.text()
	let json: Record<string, unknown> = {}
	try {
		json = JSON.parse(text) as Record<string, unknown>
	} catch {
		// not JSON
	}
	return { status: response.status, headers: response.headers, text, json }
}

/** Makes a link on the QR Codes tab as its owner does (a plain form post through the whole app), and returns it. */
async function makeLink(userId: string, profileId: number, fields: Record<string, string> = {}) {
	const handle = await appHandler()
	const response = await handle(
		new Request(new URL('/dashboard/qr-codes', env.PUBLIC_URL), {
			method: 'POST',
			headers: { cookie: await sessionCookie(userId), origin: env.PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ intent: 'shl-create', profileId: String(profileId), expires: '30d', ...fields }),
		}),
	)
	expect(response).toHaveRedirect('/dashboard/qr-codes#health-links')
	await expect(response).toSendToast({ description: 'SMART Health Link created' })
	const [link] = await listHealthLinks(userId)
	if (!link?.shlink) throw new Error('no active link')
	return { ...link, shlink: link.shlink, payload: decodeShlink(link.shlink), path: new URL(decodeShlink(link.shlink).url).pathname }
}

async function decrypt(jwe: string, key: string) {
	const { plaintext, protectedHeader } = await compactDecrypt(jwe, Buffer.from(key, 'base64url'))
	return { header: protectedHeader, bundle: JSON.parse(new TextDecoder().decode(plaintext)) as IpsBundle }
}

const linkRow = async (id: number) => (await db.select().from(s.smartHealthLinks).where(eq(s.smartHealthLinks.id, id)))[0]!
const reads = (profileId: number) =>
	db
		.select()
		.from(s.profileAudit)
		.where(and(eq(s.profileAudit.profileId, profileId), eq(s.profileAudit.kind, 'read')))
		.orderBy(s.profileAudit.id)

describe('SMART Health Links: the link, its QR code and its manifest', () => {
	test('create → decode the shlink:/ payload → POST the manifest from another site → decrypt → the profile’s summary', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id, { label: 'For Dr. Lee' })
		const { payload } = link
		expect(link.shlink).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/)
		expect(payload.url).toMatch(new RegExp(`^${env.PUBLIC_URL}/shl/[A-Za-z0-9_-]{43}$`))
		expect(payload.url.length).toBeLessThanOrEqual(128)
		expect(payload.key).toMatch(/^[A-Za-z0-9_-]{43}$/)
		expect(Buffer.from(payload.key, 'base64url')).toHaveLength(32)
		expect(payload).toMatchObject({ label: 'For Dr. Lee', v: 1 })
		expect(payload).not.toHaveProperty('flag')
		expect(payload.exp! - Date.now() / 1000).toBeGreaterThan(30 * 86_400 - 120)
		expect(payload.exp! - Date.now() / 1000).toBeLessThanOrEqual(30 * 86_400)
		// Sealed at rest: the database holds neither the key nor the label in clear.
		const [raw] = rowsOf<{ key: string; label: string }>(
			await db.execute(sql`select key, label from smart_health_links where id = ${link.id}`),
		)
		expect(raw?.key).toBeTruthy()
		expect(JSON.stringify(raw)).not.toContain(payload.key)
		expect(JSON.stringify(raw)).not.toContain('Dr. Lee')

		const answer = await viewer('POST', link.path, { recipient: 'Dr. Lee, St. Mary’s ED' }, { address: '203.0.113.7' })
		expect(answer.status).toBe(200)
		expect(answer.headers.get('access-control-allow-origin')).toBe('*')
		expect(answer.headers.get('cache-control')).toBe('no-store')
		expect(answer.headers.get('set-cookie')).toBeNull()
		const files = answer.json.files as Array<{ contentType: string; embedded: string }>
		expect(files).toHaveLength(1)
		expect(files[0]!.contentType).toBe('application/fhir+json')
		const { header, bundle } = await decrypt(files[0]!.embedded, payload.key)
		expect(header).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' })
		expect(ipsProblems(bundle)).toEqual([])
		expect(sectionResources(bundle, '48765-2')).toMatchObject([
			{ resourceType: 'AllergyIntolerance', code: { text: 'Penicillin' }, criticality: 'high' },
		])
		expect(bundle.entry.find((e) => e.resource.resourceType === 'Patient')?.resource).toMatchObject({ birthDate: '1950-06-15' })

		// Counted, and on the profile's access record as a link holder, with who asked and from where.
		const row = await linkRow(link.id)
		expect(row.accessCount).toBe(1)
		expect(row.lastAccessedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000)
		expect(await reads(profile.id)).toMatchObject([
			{
				action: 'shl-manifest',
				actorRole: 'link_recipient',
				actorUserId: null,
				ipAddress: '203.0.113.7',
				detail: 'Dr. Lee, St. Mary’s ED',
			},
		])

		// The summary is made at each access: a change to the profile shows in the next one.
		await db.insert(s.allergies).values({ medicalProfileId: profile.id, allergen: 'Latex', severity: 'Mild' })
		const again = await viewer('POST', link.path, { recipient: 'Dr. Lee' })
		const next = await decrypt((again.json.files as Array<{ embedded: string }>)[0]!.embedded, payload.key)
		expect(sectionResources(next.bundle, '48765-2').map((a) => (a.code as { text: string }).text)).toEqual(['Penicillin', 'Latex'])
		expect((await linkRow(link.id)).accessCount).toBe(2)
		expect((await reads(profile.id)).length).toBe(2)
	})

	test('the QR code encodes exactly the shlink:/ text (rendered to PNG, read by zbar)', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id, {
			label: 'A fairly long label to make the payload longer',
			passcode: 'open-sesame',
			expires: '1y',
		})
		expect(link.qrSvg).toContain('fill="#000000"')
		const png = new Resvg(link.qrSvg!, { fitTo: { mode: 'zoom', value: 3 } }).render().asPng()
		expect(await decodeQr(Buffer.from(png))).toBe(link.shlink)
	})

	test('a passcode: missing or wrong is 401 with the attempts left, each wrong one spends one; exhausted, the link is gone', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id, { passcode: 'correct horse' })
		expect(link.payload.flag).toBe('P')
		const row = await linkRow(link.id)
		expect(row.passcodeHash).toMatch(/^scrypt\$/)
		expect(row.attemptsLeft).toBe(PASSCODE_ATTEMPTS)

		const missing = await viewer('POST', link.path, { recipient: 'ED' })
		expect(missing.status).toBe(401)
		expect(missing.json).toMatchObject({ remainingAttempts: PASSCODE_ATTEMPTS, message: expect.stringContaining('passcode') })
		expect(missing.headers.get('access-control-allow-origin')).toBe('*')
		for (const left of [PASSCODE_ATTEMPTS - 1, PASSCODE_ATTEMPTS - 2]) {
			const wrong = await viewer('POST', link.path, { recipient: 'ED', passcode: 'battery staple' })
			expect(wrong.status).toBe(401)
			expect(wrong.json.remainingAttempts).toBe(left)
		}
		const right = await viewer('POST', link.path, { recipient: 'ED', passcode: 'correct horse' })
		expect(right.status).toBe(200)
		expect((await linkRow(link.id)).accessCount).toBe(1)

		// Wrong tries at once, as many as are left: each spends exactly one, and the last leaves none.
		await db.update(s.smartHealthLinks).set({ attemptsLeft: 3 }).where(eq(s.smartHealthLinks.id, link.id))
		const burst = await Promise.all([1, 2, 3].map(() => viewer('POST', link.path, { recipient: 'ED', passcode: 'guess' })))
		expect(burst.map((b) => b.status)).toEqual([401, 401, 401])
		expect(burst.map((b) => b.json.remainingAttempts).sort()).toEqual([0, 1, 2])
		expect((await linkRow(link.id)).attemptsLeft).toBe(0)
		const exhausted = await viewer('POST', link.path, { recipient: 'ED', passcode: 'correct horse' })
		expect(exhausted.status).toBe(404)
		expect(exhausted.headers.get('access-control-allow-origin')).toBe('*')

		// Refusals are on the record too, with the one access that was given.
		const actions = (await reads(profile.id)).map((r) => [r.action, r.actorRole])
		expect(actions.filter(([a]) => a === 'shl-refused')).toHaveLength(6)
		expect(actions.filter(([a]) => a === 'shl-manifest')).toHaveLength(1)
		expect(new Set(actions.map(([, role]) => role))).toEqual(new Set(['link_recipient']))
		expect((await listHealthLinks(user.id))[0]).toMatchObject({ state: 'locked', shlink: null, qrSvg: null })
	})

	test('revoked or expired: 404, nothing counted or given', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id)
		const handle = await appHandler()
		const revoke = await handle(
			new Request(new URL('/dashboard/qr-codes', env.PUBLIC_URL), {
				method: 'POST',
				headers: { cookie: await sessionCookie(user.id), origin: env.PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ intent: 'shl-revoke', linkId: String(link.id) }),
			}),
		)
		expect(revoke).toHaveRedirect(`/dashboard/qr-codes?revoked=${link.id}`)
		await expect(revoke).toSendToast({ description: 'SMART Health Link revoked: it no longer opens anything' })
		const revoked = await viewer('POST', link.path, { recipient: 'ED' })
		expect(revoked).toMatchObject({ status: 404, json: { message: expect.stringContaining('revoked') } })

		const other = await makeLink(user.id, profile.id)
		await db
			.update(s.smartHealthLinks)
			.set({ expiresAt: new Date(Date.now() - 1000) })
			.where(eq(s.smartHealthLinks.id, other.id))
		expect((await viewer('POST', other.path, { recipient: 'ED' })).status).toBe(404)
		expect((await viewer('POST', `/shl/${'x'.repeat(43)}`, { recipient: 'ED' })).status).toBe(404)
		expect((await viewer('POST', '/shl/short', { recipient: 'ED' })).status).toBe(404)

		expect((await linkRow(link.id)).accessCount).toBe(0)
		expect((await linkRow(other.id)).accessCount).toBe(0)
		expect(await reads(profile.id)).toEqual([])
		expect((await listHealthLinks(user.id)).map((l) => l.state)).toEqual(['expired', 'revoked'])
	})

	test('CORS: the preflight is answered; a POST from another site is accepted here, and still refused elsewhere', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id)
		const preflight = await viewer('OPTIONS', link.path, undefined, {
			headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
		})
		expect(preflight.status).toBe(204)
		expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
		expect(preflight.headers.get('access-control-allow-methods')).toContain('POST')
		expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type')
		expect(preflight.headers.get('access-control-allow-credentials')).toBeNull()

		const crossSite = await viewer('POST', link.path, { recipient: 'ED' }, { headers: { 'sec-fetch-site': 'cross-site' } })
		expect(crossSite.status).toBe(200)
		expect(crossSite.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
		// The exemption is this endpoint's alone: the same request to a page form is still refused.
		const elsewhere = await viewer('POST', '/api/pin/validate', { pin: 'ABCD2345' }, { headers: { 'sec-fetch-site': 'cross-site' } })
		expect(elsewhere.status).toBe(403)
	})

	test('other methods are 405; a bad body is 400, 413 or 415, before anything is counted', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id)
		for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
			const answer = await viewer(method, link.path, method === 'GET' ? undefined : { recipient: 'ED' })
			expect(answer.status, method).toBe(405)
			expect(answer.headers.get('allow'), method).toBe('POST, OPTIONS')
		}
		expect((await viewer('POST', link.path, '{not json')).status).toBe(400)
		expect((await viewer('POST', link.path, '[1]')).status).toBe(400)
		expect(await viewer('POST', link.path, {})).toMatchObject({ status: 400, json: { message: 'recipient is required' } })
		expect((await viewer('POST', link.path, { recipient: '   ' })).status).toBe(400)
		expect((await viewer('POST', link.path, { recipient: 'x'.repeat(201) })).status).toBe(400)
		expect((await viewer('POST', link.path, { recipient: 'ED', embeddedLengthMax: 'big' })).status).toBe(400)
		expect((await viewer('POST', link.path, { recipient: 'ED', padding: 'x'.repeat(5000) })).status).toBe(413)
		expect((await viewer('POST', link.path, 'recipient=ED', { headers: { 'content-type': 'text/plain' } })).status).toBe(415)
		expect((await linkRow(link.id)).accessCount).toBe(0)
	})

	test('embeddedLengthMax smaller than the file: a short-lived signed address instead, which gives the same file', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id)
		const answer = await viewer('POST', link.path, { recipient: 'ED', embeddedLengthMax: 100 })
		expect(answer.status).toBe(200)
		const [file] = answer.json.files as Array<{ contentType: string; location?: string; embedded?: string }>
		expect(file).toMatchObject({ contentType: 'application/fhir+json' })
		expect(file).not.toHaveProperty('embedded')
		const location = new URL(file!.location!)
		expect(location.pathname).toBe(`${link.path}/file`)
		const fetched = await viewer('GET', location.pathname + location.search)
		expect(fetched.status).toBe(200)
		expect(fetched.headers.get('content-type')).toBe('application/jose')
		expect(fetched.headers.get('access-control-allow-origin')).toBe('*')
		const { bundle } = await decrypt(fetched.text, link.payload.key)
		expect(ipsProblems(bundle)).toEqual([])

		const token = location.searchParams.get('token')!
		const forged = `${Number(token.split('.')[0]) + 60}.${token.split('.')[1]}`
		expect((await viewer('GET', `${location.pathname}?token=${forged}`)).status).toBe(404)
		expect((await viewer('GET', `${location.pathname}?token=1.${token.split('.')[1]}`)).status).toBe(404)
		expect((await viewer('POST', location.pathname + location.search, { recipient: 'ED' })).status).toBe(405)
		// A large enough allowance embeds it.
		const embedded = await viewer('POST', link.path, { recipient: 'ED', embeddedLengthMax: 10_000_000 })
		expect((embedded.json.files as Array<{ embedded?: string }>)[0]!.embedded).toMatch(/^ey/)

		await db.update(s.smartHealthLinks).set({ revokedAt: new Date() }).where(eq(s.smartHealthLinks.id, link.id))
		expect((await viewer('GET', location.pathname + location.search)).status).toBe(404)
	})

	test('limited per address like PIN guessing: past the strict tier, 429 (readable by the viewer)', async () => {
		const { user, profile } = await fullProfile()
		const link = await makeLink(user.id, profile.id, { passcode: 'right one' })
		const address = testAddress()
		const saved = env.RATE_LIMIT_STRICT_PER_MINUTE
		env.RATE_LIMIT_STRICT_PER_MINUTE = 3
		try {
			const answers = []
			for (let i = 0; i < 4; i++) answers.push(await viewer('POST', link.path, { recipient: 'ED', passcode: 'wrong' }, { address }))
			expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429])
			expect(answers[3]!.headers.get('access-control-allow-origin')).toBe('*')
			expect(answers[3]!.headers.get('retry-after')).toMatch(/^\d+$/)
			// The refused request never reached the link: three attempts spent, not four.
			expect((await linkRow(link.id)).attemptsLeft).toBe(PASSCODE_ATTEMPTS - 3)
			expect((await viewer('POST', link.path, { recipient: 'ED', passcode: 'right one' })).status).toBe(200)
		} finally {
			env.RATE_LIMIT_STRICT_PER_MINUTE = saved
		}
	})
})
