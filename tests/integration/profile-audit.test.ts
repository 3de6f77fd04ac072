import { RouterContextProvider } from 'react-router'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { accountAudit, searchAudit } from '#app/domain/profiles/audit.server.ts'
import { deleteProfile, savePersonalInfo, updateProfileFields } from '#app/domain/profiles/profiles.server.ts'
import { addRow, deleteRow, updateRow } from '#app/domain/profiles/sections.server.ts'
import { saveDnr } from '#app/domain/profiles/files.server.ts'
import { requestScopeMiddleware } from '#app/middleware/request-scope.server.ts'
import { clientAddressContext } from '#app/utils/request.server.ts'
import * as scan from '#app/routes/scan/scan.ts'
import * as scanFile from '#app/routes/scan/scan-file.ts'
import { call, createUser, SAMPLE_FILES, sessionCookie } from '#tests/factories.ts'
import { claimedProfile } from '#tests/profiles.ts'

const CHROME = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36'

const profileWithSticker = () => claimedProfile('Audrey Audit')

const entriesOf = (profileId: number) =>
	db.select().from(s.profileAudit).where(eq(s.profileAudit.profileId, profileId)).orderBy(s.profileAudit.id)

function scanAs(token: string, init: { userAgent?: string; cookie?: string; address?: string; kind?: 'dnr' | 'photo' } = {}) {
	const headers = new Headers({ 'user-agent': init.userAgent ?? CHROME, 'accept-language': 'en' })
	if (init.cookie) headers.set('cookie', init.cookie)
	const path = init.kind ? `/scan/${token}/${init.kind}` : `/scan/${token}`
	const request = new Request(`http://localhost:3000${path}`, { headers })
	return init.kind
		? call(scanFile.loader, request, { token, kind: init.kind }, init.address)
		: call(scan.loader, request, { token }, init.address)
}

/** What the database said when it refused a statement (drizzle wraps it). */
async function refusal(statement: Promise<unknown>) {
	try {
		await statement
		return 'accepted'
	} catch (error) {
		return String((error as { cause?: Error }).cause?.message ?? error)
	}
}

describe('the record of who read and changed a profile', () => {
	test('each change is recorded with its field names only, never the values', async () => {
		const { user, profileId } = await profileWithSticker()
		const allergy = await addRow(user.id, 'allergies', profileId, { allergen: 'Secretamine', severity: 'Severe', reaction: 'Wheeze' })
		await updateRow(user.id, 'allergies', allergy.id, { allergen: 'Secretamine', severity: 'Mild', reaction: 'Rash' })
		await deleteRow(user.id, 'allergies', allergy.id)
		await updateProfileFields(user.id, profileId, { additionalNotes: 'Private words', isScannable: true })

		const entries = await entriesOf(profileId)
		expect(entries.map((e) => [e.kind, e.action, e.fields])).toEqual([
			['change', 'profile-created', expect.any(Array)],
			['change', 'allergies-added', ['allergen', 'severity', 'reaction']],
			['change', 'allergies-changed', ['severity', 'reaction']],
			['change', 'allergies-removed', []],
			['change', 'profile-updated', ['additionalNotes']],
		])
		expect(entries.every((e) => e.actorUserId === user.id && e.actorRole === 'owner' && e.ownerUserId === user.id)).toBe(true)
		const stored = JSON.stringify(entries)
		for (const value of ['Secretamine', 'Wheeze', 'Rash', 'Private words']) expect(stored).not.toContain(value)
	})

	test('a change made through a request records where it came from', async () => {
		const { user, profileId } = await profileWithSticker()
		const context = new RouterContextProvider()
		context.set(clientAddressContext, '2001:db8::77')
		const request = new Request('http://localhost:3000/medical-info', { method: 'POST' })
		await requestScopeMiddleware({ request, context, params: {}, unstable_pattern: '' } as never, async () => {
			await updateProfileFields(user.id, profileId, { additionalNotes: 'From a request' })
			return new Response(null)
		})
		const last = (await entriesOf(profileId)).at(-1)!
		expect([last.action, last.ipAddress]).toEqual(['profile-updated', '2001:db8::77'])
	})

	test('a profile deleted, and a DNR document replaced, are on the record too', async () => {
		const { user, profileId } = await profileWithSticker()
		await savePersonalInfo(user.id, { firstName: 'Own' })
		await saveDnr(user.id, profileId, { dnrStatus: 'DNR', dnrOriginalLocation: 'Kitchen drawer' }, SAMPLE_FILES.pdf())
		await deleteProfile(user.id, profileId)
		const actions = (await entriesOf(profileId)).map((e) => [e.action, e.fields])
		expect(actions).toContainEqual(['profile-updated', expect.arrayContaining(['dnrStatus', 'dnrOriginalLocation', 'dnrDocumentKey'])])
		expect(actions.at(-1)).toEqual(['profile-deleted', []])
	})

	test('reads by anyone but the account are recorded; the account reading its own page is not', async () => {
		const { user, cookie, sticker, profileId } = await profileWithSticker()
		const other = await createUser()
		await saveDnr(user.id, profileId, { dnrStatus: 'DNR' }, SAMPLE_FILES.pdf())
		const before = (await entriesOf(profileId)).length

		await scanAs(sticker.token, { address: '2001:db8::1' })
		await scanAs(sticker.token, { cookie })
		await scanAs(sticker.token, { cookie: await sessionCookie(other.id), address: '2001:db8::2' })
		await scanAs(sticker.token, { userAgent: 'WhatsApp/2.23.20.0' })
		await scanAs(sticker.token, { kind: 'dnr', address: '2001:db8::3' })
		await scanAs(sticker.token, { kind: 'dnr', cookie })

		const reads = (await entriesOf(profileId)).slice(before)
		expect(reads.map((e) => [e.kind, e.action, e.actorRole, e.actorUserId, e.ipAddress])).toEqual([
			['read', 'scan', 'responder', null, '2001:db8::1'],
			['read', 'scan', 'responder', other.id, '2001:db8::2'],
			['read', 'scan', 'link_preview', null, expect.any(String)],
			['read', 'scan-dnr', 'responder', null, '2001:db8::3'],
		])
		expect(reads.every((e) => e.detail === `QR code ${sticker.pin}`)).toBe(true)
	})

	test('a code that shows nothing records no read', async () => {
		const { user, sticker, profileId } = await profileWithSticker()
		await updateProfileFields(user.id, profileId, { isScannable: false })
		const before = (await entriesOf(profileId)).length
		await scanAs(sticker.token)
		expect((await entriesOf(profileId)).length).toBe(before)
	})

	test('the account sees its own record without addresses; the admin area filters the whole log', async () => {
		const a = await profileWithSticker()
		const b = await profileWithSticker()
		await scanAs(a.sticker.token, { address: '2001:db8::9' })

		const own = await accountAudit(a.user.id)
		expect(own.entries.every((e) => e.profileId === a.profileId)).toBe(true)
		expect(own.entries[0]).toMatchObject({ kind: 'read', action: 'scan', profileName: 'Audrey Audit' })
		expect(own.entries[0]).not.toHaveProperty('ipAddress')
		expect((await accountAudit(a.user.id, { kind: 'change' })).entries.every((e) => e.kind === 'change')).toBe(true)
		expect((await accountAudit(b.user.id)).entries.some((e) => e.profileId === a.profileId)).toBe(false)

		const reads = await searchAudit({ kind: 'read', email: a.user.email.toUpperCase() })
		expect(reads.entries.map((e) => [e.profileId, e.ipAddress, e.ownerEmail])).toEqual([[a.profileId, '2001:db8::9', a.user.email]])
		expect((await searchAudit({ profileId: b.profileId })).entries.every((e) => e.profileId === b.profileId)).toBe(true)
		expect((await searchAudit({ profileId: a.profileId, from: new Date(Date.now() + 60_000) })).entries).toEqual([])
	})

	test('the record cannot be changed or removed', async () => {
		const { profileId } = await profileWithSticker()
		const [entry] = await entriesOf(profileId)
		expect(await refusal(db.execute(sql`update profile_audit set action = 'x' where id = ${entry!.id}`))).toMatch(/append-only/)
		expect(await refusal(db.execute(sql`delete from profile_audit where id = ${entry!.id}`))).toMatch(/append-only/)
		expect(await refusal(db.execute(sql`truncate profile_audit`))).toMatch(/append-only/)
		expect(await entriesOf(profileId)).toHaveLength(1)
	})

	test("erasing an account erases its own record and its name as another's reader; nothing else can", async () => {
		const { user, sticker, profileId } = await profileWithSticker()
		const reader = await createUser()
		await scanAs(sticker.token, { cookie: await sessionCookie(reader.id) })
		expect((await entriesOf(profileId)).at(-1)?.actorUserId).toBe(reader.id)
		await db.delete(s.users).where(eq(s.users.id, reader.id))
		const [read] = (await entriesOf(profileId)).slice(-1)
		expect([read!.action, read!.actorUserId]).toEqual(['scan', null])
		expect(await refusal(db.execute(sql`update profile_audit set actor_user_id = null, action = 'x' where id = ${read!.id}`))).toMatch(
			/append-only/,
		)
		await db.delete(s.users).where(eq(s.users.id, user.id))
		expect(await entriesOf(profileId)).toEqual([])
	})
})
