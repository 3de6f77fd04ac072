import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { count, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { storage } from '#app/adapters/storage.server.ts'
import { removePicture, saveDnr, uploadPicture } from '#app/domain/profiles/files.server.ts'
import { SCANS_RECORDED_PER_MINUTE } from '#app/domain/responder/responder.server.ts'
import * as files from '#app/routes/files.ts'
import * as scan from '#app/routes/scan/scan.ts'
import * as scanFile from '#app/routes/scan/scan-file.ts'
import { call, createCode, getRequest, pdfWithScripts, SAMPLE_FILES, sessionCookie, unwrap } from '#tests/factories.ts'
import { smallPictureKey } from '#app/domain/uploads/small-pictures.server.ts'
import { fullProfile } from '#tests/profiles.ts'

async function scanPage(token: string, headers: Record<string, string> = {}, query = '', address?: string) {
	const request = new Request(`http://localhost:3000/scan/${token}${query}`, { headers })
	const response = (await call(scan.loader, request, { token }, address)).result as Response
	return { status: response.status, headers: response.headers, html: await response.text() }
}

describe('the responder page', () => {
	test('names the person (name, age) with the code status first, then critical flags, conditions, allergies, medications, contacts, identity, insurance, blood type, notes, confirmation date', async () => {
		const { code } = await fullProfile()
		const page = await scanPage(code.token)
		expect(page.status).toBe(200)
		const age = new Date().getUTCFullYear() - 1950 - (new Date().toISOString().slice(5, 10) < '06-15' ? 1 : 0)
		const order = [
			'Maria Santos',
			`Age ${age} · Born June 15, 1950`,
			'DNR: Do Not Resuscitate',
			'Anticoagulant / blood thinner: Warfarin',
			'Severe allergy: Penicillin',
			'Atrial fibrillation',
			'Penicillin</span> (Severe): Reaction Anaphylaxis',
			'Warfarin</b> 5 mg, daily',
			'Call Luis Santos',
			'Scar on left knee',
			'Medicare',
			'AB-',
			'Hard of hearing &lt;speak up&gt;',
			'Information last confirmed by its owner on November 1, 2026',
		]
		let last = -1
		for (const text of order) {
			const at = page.html.indexOf(text, last + 1)
			expect(at, text).toBeGreaterThan(last)
			last = at
		}
		expect(page.html).toContain('Signed February 1, 2024')
		expect(page.html).toContain('Original kept: On the refrigerator')
		expect(page.html).toContain(`href="/scan/${code.token}/dnr"`)
		expect(page.html).toContain('href="tel:+15550100200"')
	})

	test('no script needed (the one inline script only adds the location button, allowed by its hash), at most 14 KB compressed, not cached, not indexed', async () => {
		const { code, profile } = await fullProfile()
		const page = await scanPage(code.token)
		const scripts = [...page.html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)]
		expect(scripts).toHaveLength(1)
		expect(scripts[0]![1]).toBe('')
		const hash = createHash('sha256').update(scripts[0]![2]!).digest('base64')
		expect(page.headers.get('content-security-policy')).toContain(`script-src 'sha256-${hash}';`)
		expect(page.headers.get('content-security-policy')).toContain("form-action 'self'")
		// The form itself is plain HTML: it posts without the script.
		expect(page.html).toContain(`<form id="helping" method="post" action="/scan/${code.token}/helping"`)
		expect(gzipSync(page.html).length).toBeLessThanOrEqual(14 * 1024)
		// Alerts turned off: no form, and no script at all.
		await db.update(s.medicalProfiles).set({ helpingAlerts: false }).where(eq(s.medicalProfiles.id, profile.id))
		const quiet = await scanPage(code.token)
		expect(quiet.html).not.toMatch(/<script|<form/i)
		expect(quiet.headers.get('content-security-policy')).not.toContain('script-src')
		expect(page.headers.get('cache-control')).toBe('no-store')
		expect(page.headers.get('x-robots-tag')).toContain('noindex')
		expect(page.html).toContain('<meta name="robots" content="noindex,nofollow">')
	})

	test('labels follow Accept-Language (English, Spanish, French), with a switch; the person’s own text stays as written', async () => {
		const { code } = await fullProfile()
		const es = await scanPage(code.token, { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' })
		expect(es.html).toContain('<html lang="es">')
		expect(es.html).toContain('Alergias')
		expect(es.html).toContain('Penicillin')
		const fr = await scanPage(code.token, { 'accept-language': 'de-DE,fr;q=0.5' })
		expect(fr.html).toContain('Allergies')
		expect(fr.html).toContain('<html lang="fr">')
		const forced = await scanPage(code.token, { 'accept-language': 'fr' }, '?lang=en')
		expect(forced.html).toContain('<html lang="en">')
		expect(forced.html).toContain(`href="/scan/${code.token}?lang=es"`)
	})

	test('every scan is recorded with the device type', async () => {
		const { code } = await fullProfile()
		const row = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		await scanPage(code.token, { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' })
		await scanPage(code.token, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' })
		const scans = await db.select().from(s.qrScans).where(eq(s.qrScans.qrCodeId, row!.id))
		expect(scans.map((x) => x.deviceType).sort()).toEqual(['desktop', 'mobile'])
		expect(scans.every((x) => x.isEmergencyAccess)).toBe(true)
	})

	test('scanning off or an inactive code reveals nothing about the person', async () => {
		const { code, profile } = await fullProfile()
		await db.update(s.medicalProfiles).set({ isScannable: false }).where(eq(s.medicalProfiles.id, profile.id))
		const off = await scanPage(code.token)
		expect(off.status).toBe(200)
		expect(off.html).toContain('This code is not active')
		for (const secret of ['Maria', 'Penicillin', 'Warfarin', 'DNR:', 'Luis']) expect(off.html).not.toContain(secret)
		// Refused as a page a browser can show, never a bare JSON string.
		const refused = await unwrap((await call(scanFile.loader, new Request('http://x'), { token: code.token, kind: 'dnr' })).result)
		expect(refused.status).toBe(404)
		expect(refused.headers.get('content-type')).toMatch(/^text\/html/)
		expect(refused.body).toContain('This file is not available.')

		await db.update(s.medicalProfiles).set({ isScannable: true }).where(eq(s.medicalProfiles.id, profile.id))
		await db.update(s.qrCodes).set({ isActive: false }).where(eq(s.qrCodes.token, code.token))
		const inactive = await scanPage(code.token)
		expect(inactive.html).toContain('This code is not active')
		expect(inactive.html).not.toContain('Maria')
	})

	test('an unclaimed code says how to activate it without its PIN; an unknown token is a 404', async () => {
		const code = await createCode()
		const unclaimed = await scanPage(code.token)
		expect(unclaimed.html).toContain('This QR code has not been activated yet')
		expect(unclaimed.html).not.toContain(code.pin)
		const unknown = await scanPage('A'.repeat(24))
		expect(unknown.status).toBe(404)
		expect(unknown.html).toContain('Unknown QR code')
		const [{ n }] = (await db.select({ n: count() }).from(s.qrScans)) as [{ n: number }]
		expect(n).toBeGreaterThan(0)
	})
})

const visit = (address = '198.51.100.20') => ({ userAgent: null, address, trustedHeaders: null, viewerIsOwner: false })

describe('scan history', () => {
	test('is limited per code and address: the page is always served, extra rows are dropped', async () => {
		const { code } = await fullProfile()
		const other = await fullProfile()
		const row = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		const rows = async (codeId: number) =>
			((await db.select({ n: count() }).from(s.qrScans).where(eq(s.qrScans.qrCodeId, codeId))) as [{ n: number }])[0].n
		const pages = await Promise.all(Array.from({ length: 12 }, () => scanPage(code.token, {}, '', '203.0.113.50')))
		expect(pages.map((p) => p.status)).toEqual(Array(12).fill(200))
		expect(pages.every((p) => p.html.includes('Maria Santos'))).toBe(true)
		expect(await rows(row!.id)).toBe(SCANS_RECORDED_PER_MINUTE)
		// Another address is counted on its own, and so is another code from the same address.
		await scanPage(code.token, {}, '', '203.0.113.51')
		expect(await rows(row!.id)).toBe(SCANS_RECORDED_PER_MINUTE + 1)
		const otherRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, other.code.token) })
		await scanPage(other.code.token, {}, '', '203.0.113.50')
		expect(await rows(otherRow!.id)).toBe(1)
		// A new minute, a new allowance.
		await db
			.update(s.rateLimits)
			.set({ resetAt: sql`now() - interval '1 second'` })
			.where(eq(s.rateLimits.key, `scan:${row!.id}:203.0.113.50`))
		await scanPage(code.token, {}, '', '203.0.113.50')
		expect(await rows(row!.id)).toBe(SCANS_RECORDED_PER_MINUTE + 2)
	})

	test('geolocation headers count only when they come through a trusted proxy', async () => {
		const { code } = await fullProfile()
		await scanPage(code.token, { 'cf-ipcountry': 'FR', 'cf-ipcity': 'Paris' }, '', '203.0.113.60')
		const row = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		const [scanRow] = await db.select().from(s.qrScans).where(eq(s.qrScans.qrCodeId, row!.id))
		expect(scanRow).toMatchObject({ country: null, city: null })
	})
})

describe('scan alerts', () => {
	test('the owner is e-mailed when a code is scanned, at most once per code per 10 minutes', async () => {
		const { recordScan } = await import('#app/domain/responder/responder.server.ts')
		const { user, code } = await fullProfile()
		const row = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		const scan = () => recordScan(row!.id, visit(), null, new Date('2026-11-22T15:04:00Z'))
		// Simultaneous scans: exactly one of them alerts the owner.
		const first = await Promise.all([scan(), scan(), scan()])
		expect(first.filter((r) => r.alertOwner)).toHaveLength(1)
		expect((await scan()).alertOwner).toBe(false)
		const after = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.id, row!.id) })
		expect(after!.updatedAt).toEqual(row!.updatedAt)
		await db
			.update(s.qrCodes)
			.set({ scanAlertSentAt: sql`now() - interval '10 minutes'` })
			.where(eq(s.qrCodes.id, row!.id))
		expect((await scan()).alertOwner).toBe(true)
		const unclaimed = await createCode()
		const unclaimedRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, unclaimed.token) })
		expect((await recordScan(unclaimedRow!.id, visit())).alertOwner).toBe(false)
		// Each alert is a message recorded with its slot; its 'send-email' job sends it.
		const mails = await db.select().from(s.emails).where(eq(s.emails.userId, user.id)).orderBy(s.emails.id)
		expect(mails).toHaveLength(2)
		expect(mails[0]).toMatchObject({
			toAddress: user.email,
			emailType: 'scan-alert',
			status: 'pending',
			subject: `Your QR code ${code.pin} was scanned`,
		})
		expect(mails[0]!.textBody).toContain('(Maria Santos) was scanned on November 22, 2026 at 10:04 AM ET')
	})
})

describe('the DNR document', () => {
	const SCRIPT_MARKS = ['/JavaScript', '/OpenAction', '/AA', '/Launch', 'app.alert']
	const responderFetch = async (token: string) =>
		(await call(scanFile.loader, new Request(`http://localhost:3000/scan/${token}/dnr`), { token, kind: 'dnr' })).result as Response

	test('a PDF uploaded with JavaScript (/OpenAction) reaches an anonymous responder without it, as a sandboxed download', async () => {
		const { user, profile, code } = await fullProfile()
		const upload = new File([new Uint8Array(await pdfWithScripts())], 'dnr.pdf', { type: 'application/pdf' })
		await saveDnr(user.id, profile.id, { dnrStatus: 'DNR', dnrDocumentDate: '2024-02-01', dnrOriginalLocation: undefined }, upload)

		const response = await responderFetch(code.token)
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('application/pdf')
		expect(response.headers.get('content-disposition')).toBe('attachment; filename="dnr-document.pdf"')
		expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/)
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		const served = Buffer.from(await response.arrayBuffer()).toString('latin1')
		expect(served.startsWith('%PDF-')).toBe(true)
		for (const mark of SCRIPT_MARKS) expect(served).not.toContain(mark)
	})

	test('one stored with its scripts (before uploads were cleaned, or unreadable to the cleaner) is still only a sandboxed download', async () => {
		const { profile, code } = await fullProfile()
		const scripted = await pdfWithScripts()
		await storage.put(profile.dnrDocumentKey!, scripted, 'application/pdf')

		const response = await responderFetch(code.token)
		expect(response.status).toBe(200)
		expect(response.headers.get('content-disposition')).toMatch(/^attachment;/)
		expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/)
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(new Uint8Array(await response.arrayBuffer())).toEqual(scripted)
	})

	test('its owner opens it in the browser, sandboxed', async () => {
		const { user, profile } = await fullProfile()
		await storage.put(profile.dnrDocumentKey!, await pdfWithScripts(), 'application/pdf')
		const cookie = await sessionCookie(user.id)
		const path = `/files/dnr/${profile.id}`
		const response = (await call(files.loader, getRequest(path, cookie), { kind: 'dnr', id: String(profile.id) })).result as Response
		expect(response.status).toBe(200)
		expect(response.headers.get('content-disposition')).toBe('inline')
		expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/)
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(response.headers.get('cache-control')).toBe('private, no-store')
	})
})

describe('the photo', () => {
	const photoFetch = async (token: string, accept?: string) => {
		const request = new Request(`http://localhost:3000/scan/${token}/photo`, { headers: accept ? { accept } : {} })
		return (await call(scanFile.loader, request, { token, kind: 'photo' })).result as Response
	}
	const bigPhoto = async () => {
		// A 3000 × 4000 phone photo with detail in it, so its JPEG is a few MB as a real one is.
		const noise = Buffer.alloc(300 * 400 * 3)
		for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24
		const jpeg = await sharp(noise, { raw: { width: 300, height: 400, channels: 3 } })
			.resize(3000, 4000, { kernel: 'nearest' })
			.jpeg({ quality: 80 })
			.toBuffer()
		return new File([new Uint8Array(jpeg)], 'me.jpg', { type: 'image/jpeg' })
	}

	test('a 3000 × 4000 photo reaches the responder small: page and photo under 25 KB on the wire, the photo under 20 KB, kept privately', async () => {
		const { user, profile, code } = await fullProfile()
		const upload = await bigPhoto()
		expect(upload.size).toBeGreaterThan(1_000_000)
		await uploadPicture(user.id, profile.id, upload)
		const page = await scanPage(code.token, { 'accept-encoding': 'gzip' })
		expect(page.html).toContain(`src="/scan/${code.token}/photo"`)
		const pageBytes = gzipSync(page.html).byteLength
		const webp = await photoFetch(code.token, 'image/avif,image/webp,image/apng,*/*;q=0.8')
		expect(webp.status).toBe(200)
		expect(webp.headers.get('content-type')).toBe('image/webp')
		expect(webp.headers.get('cache-control')).toBe('private, max-age=600')
		expect(webp.headers.get('vary')).toBe('Accept')
		const webpBytes = new Uint8Array(await webp.arrayBuffer())
		expect(webpBytes.byteLength).toBeLessThan(20_000)
		expect(pageBytes + webpBytes.byteLength).toBeLessThan(25_000)
		expect(await sharp(webpBytes).metadata()).toMatchObject({ format: 'webp', width: 150, height: 200 })
		// A browser that does not take WebP gets the JPEG copy.
		const jpeg = await photoFetch(code.token, 'image/*')
		expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
		expect((await jpeg.arrayBuffer()).byteLength).toBeLessThan(20_000)
		// The owner still has the picture as uploaded (re-encoded, at most 4096 px).
		const own = (
			await call(files.loader, getRequest(`/files/picture/${profile.id}`, await sessionCookie(user.id)), {
				kind: 'picture',
				id: String(profile.id),
			})
		).result as Response
		expect((await sharp(new Uint8Array(await own.arrayBuffer())).metadata()).width).toBe(3000)
	})

	test('a picture stored before there were small copies gets them at its first request; replacing or removing it removes them', async () => {
		const { user, profile, code } = await fullProfile()
		await uploadPicture(user.id, profile.id, SAMPLE_FILES.png())
		const pictureKey = async () =>
			(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) }))!.profilePictureKey!
		const copies = async (key: string) =>
			Promise.all((['jpeg', 'webp'] as const).map((format) => storage.get(smallPictureKey(key, format))))
		const first = await pictureKey()
		await storage.delete(smallPictureKey(first, 'jpeg'))
		expect(await storage.get(smallPictureKey(first, 'jpeg'))).toBeNull()
		expect((await photoFetch(code.token)).status).toBe(200)
		expect(await storage.get(smallPictureKey(first, 'jpeg'))).not.toBeNull()
		await uploadPicture(user.id, profile.id, SAMPLE_FILES.png())
		const second = await pictureKey()
		expect(await copies(first)).toEqual([null, null])
		expect((await copies(second)).every(Boolean)).toBe(true)
		await removePicture(user.id, profile.id)
		expect(await copies(second)).toEqual([null, null])
		expect(
			(await unwrap((await call(scanFile.loader, getRequest(`/scan/${code.token}/photo`), { token: code.token, kind: 'photo' })).result))
				.status,
		).toBe(404)
	})
})
