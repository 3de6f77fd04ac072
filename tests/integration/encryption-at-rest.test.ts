import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { toSnakeCase } from 'drizzle-orm/casing'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import { eq, is, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { SEALED_COLUMNS } from '#db/schema/columns.ts'
import { storage } from '#app/adapters/storage.server.ts'
import { createDataCrypto } from '#app/utils/data-crypto.server.ts'
import { sealedData } from '#app/utils/sealed-data.server.ts'
import { env } from '#app/utils/env.server.ts'
import {
	deleteProfile,
	getProfileDetail,
	insertFamilyProfile,
	savePersonalInfo,
	updateProfileFields,
} from '#app/domain/profiles/profiles.server.ts'
import { addRow } from '#app/domain/profiles/sections.server.ts'
import { addDocument } from '#app/domain/profiles/files.server.ts'
import { resealColumns, resealFiles, sealOutstanding } from '#app/domain/housekeeping/reseal.server.ts'
import { newResponderKey, reportHelping } from '#app/domain/responder/helping.server.ts'
import { sendDueReviewReminders } from '#app/domain/reviews/reviews.server.ts'
import * as scan from '#app/routes/scan/scan.ts'
import { call, testAddress } from '#tests/factories.ts'
import { messagesTo } from '#app/adapters/mail.server.ts'
import { claimedProfile } from '#tests/profiles.ts'
import { rowsOf } from '#db/client.ts'

/** Words no other test writes, so finding one in the database's files can only mean this test's data is in clear. */
function marks() {
	const tag = Math.random().toString(36).slice(2, 8)
	return {
		name: `Ottilie Plainname${tag}`,
		allergen: `Zorvexamide${tag}`,
		reaction: `Hivesquake${tag}`,
		medication: `Quillapraxin${tag}`,
		condition: `Brindlecardia${tag}`,
		notes: `Keepsakenote${tag}`,
		policy: `POL${tag}X9`,
		document: `Dossiertext${tag}`,
		contactPhone: `555-01${tag.length}${tag.length}`,
		born: '1903-02-17',
		hospital: `Saint Quorvane${tag} Hospital`,
		contactEmail: `quillon.${tag}@contact.example`,
	}
}

async function filledProfile() {
	const m = marks()
	const { user, sticker, profileId } = await claimedProfile(m.name)
	await savePersonalInfo(
		user.id,
		{ firstName: 'Ottilie', lastName: m.name.split(' ')[1], bloodType: 'AB-', dateOfBirth: m.born },
		profileId,
	)
	await updateProfileFields(user.id, profileId, { additionalNotes: m.notes })
	await addRow(user.id, 'allergies', profileId, { allergen: m.allergen, severity: 'Severe', reaction: m.reaction })
	await addRow(user.id, 'medications', profileId, { name: m.medication, dosage: '5 mg' })
	await addRow(user.id, 'conditions', profileId, { condition: m.condition, status: 'Chronic' })
	await addRow(user.id, 'contacts', profileId, {
		name: 'Contact Person',
		relationship: 'Parent',
		phoneNumber: '555-0100',
		email: m.contactEmail,
		alertOptIn: true,
	})
	await addRow(user.id, 'policies', profileId, { provider: 'Acme Health', policyNumber: m.policy })
	const pdf = `%PDF-1.4\n1 0 obj<< /Length 44 >>stream\nBT /F1 12 Tf (${m.document}) Tj ET\nendstream endobj\ntrailer<<>>\n%%EOF\n`
	const document = await addDocument(user.id, profileId, new File([pdf], 'results.pdf', { type: 'application/pdf' }))
	return { m, user, profileId, sticker, document, pdf }
}

/**
 * What the database keeps on disk: the embedded database's data directory (tables, indexes, write-ahead log); for
 * PostgreSQL a pg_dump, and the server's own files (indexes and WAL included) where this process may read them.
 */
async function textsOnDisk(texts: string[]) {
	const found = new Set<string>()
	const look = (bytes: Buffer) => texts.filter((text) => bytes.includes(text)).forEach((text) => found.add(text))
	if (!process.env.DATABASE_URL) {
		await db.execute(sql`checkpoint`)
		const client = (db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client
		look(Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()))
		return found
	}
	look(execFileSync(pgDump(), ['--no-owner', process.env.DATABASE_URL], { maxBuffer: 1 << 30 }))
	for (const path of await serverFilePaths()) look(readIfStillThere(path))
	return found
}

async function serverFilePaths() {
	try {
		const [row] = rowsOf<{ dir: string }>(await db.execute(sql`select current_setting('data_directory') as dir`))
		await db.execute(sql`checkpoint`)
		return readdirSync(row!.dir, { recursive: true, withFileTypes: true })
			.filter((entry) => entry.isFile())
			.map((entry) => join(entry.parentPath, entry.name))
	} catch {
		return [] // not a superuser, or the server's files are elsewhere: the dump is what can be read
	}
}

/** The server's files change while it runs: one dropped since the listing (another database's table) holds nothing. */
function readIfStillThere(path: string) {
	try {
		return readFileSync(path)
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0)
		throw error
	}
}

function pgDump() {
	const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : []
	return versions.map((v) => `/usr/lib/postgresql/${v}/bin/pg_dump`).find(existsSync) ?? 'pg_dump'
}

function filesUnder(dir: string): Buffer[] {
	if (!existsSync(dir)) return []
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => readFileSync(join(entry.parentPath, entry.name)))
}

describe('medical data at rest', () => {
	test('the database and the stored files hold none of it in clear; the responder page and the owner read it all', async () => {
		const { m, user, profileId, sticker, document, pdf } = await filledProfile()
		// The messages that repeat it: a review reminder (it lists the allergies and medications), a responder's alert.
		await db
			.update(s.medicalProfiles)
			.set({ confirmedAt: new Date(Date.now() - 400 * 86_400_000) })
			.where(eq(s.medicalProfiles.id, profileId))
		expect(await sendDueReviewReminders()).toBeGreaterThan(0)
		const visit = { userAgent: null, address: testAddress() }
		const helping = await reportHelping(sticker.token, newResponderKey(), { hospital: m.hospital, where: m.notes }, visit)
		expect(helping).toMatchObject({ update: false, held: false })
		const outbox = await db.select({ to: s.emails.toAddress, subject: s.emails.subject }).from(s.emails).where(messagesTo(m.contactEmail))
		expect(outbox).toEqual([{ to: m.contactEmail, subject: 'Someone is helping Ottilie now' }])
		// A family member's profile, deleted: its name stays in the owner's audit log, sealed.
		const relative = `Wendeline ${m.name.split(' ')[1]!}Kin`
		const member = await insertFamilyProfile(db, user.id, { fullName: relative, relationshipToUser: 'Child' })
		await deleteProfile(user.id, member.id)
		const secrets = [m.allergen, m.reaction, m.medication, m.condition, m.notes, m.policy, m.document, m.born, m.hospital]
		const person = [m.name, m.name.split(' ')[1]!, m.contactEmail, relative]
		const found = await textsOnDisk([user.email, ...secrets, ...person])
		// The account's e-mail address is not sealed (sign-in finds the account by it): finding it proves these are this test's rows.
		expect(found.has(user.email)).toBe(true)
		for (const secret of [...secrets, ...person]) expect(found.has(secret), `${secret} in the database`).toBe(false)

		const stored = filesUnder(join(env.DATA_DIR, 'uploads'))
		expect(stored.length).toBeGreaterThan(0)
		for (const file of stored) expect(file.includes(m.document), 'document text in the storage folder').toBe(false)

		const page = await (
			(
				await call(scan.loader, new Request(`http://localhost:3000/scan/${sticker.token}`), { token: sticker.token })
			).result as Response
		).text()
		for (const shown of [m.allergen, m.reaction, m.medication, m.condition, m.notes]) expect(page).toContain(shown)
		expect(page).toContain(m.born.slice(0, 4))

		const detail = await getProfileDetail(
			(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profileId) }))!.userId,
			profileId,
		)
		expect(detail?.insurancePolicies[0]?.policyNumber).toBe(m.policy)
		expect(detail?.medicalDocuments[0]?.fileName).toBe('results.pdf')
		const file = await storage.get(document.storageKey)
		expect(Buffer.from(file!.body).toString()).toBe(pdf)
		expect(file!.size).toBe(pdf.length)
	})

	test('every sealed column is a text column of the schema, bound to its own table and name', () => {
		const schemaColumns = new Set(
			Object.values(s)
				.flatMap((value) => (is(value, PgTable) ? [value] : []))
				.flatMap((table) => {
					const config = getTableConfig(table)
					return config.columns
						.filter((c) => c.columnType === 'PgCustomColumn' && c.getSQLType() === 'text')
						.map((c) => `${config.name}.${toSnakeCase(c.name)}`)
				}),
		)
		expect([...SEALED_COLUMNS].sort()).toEqual([...schemaColumns].sort())
	})

	test('a value sealed in one column does not open in another', async () => {
		const { profileId } = await filledProfile()
		const [notes] = rowsOf<{ v: string }>(await db.execute(sql`select additional_notes as v from medical_profiles where id = ${profileId}`))
		expect(notes!.v.startsWith(`$hmh1$${sealedData.currentKeyId}$`)).toBe(true)
		await db.execute(sql`update medical_profiles set insurance = ${notes!.v} where id = ${profileId}`)
		await expect(db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profileId) })).rejects.toThrow(/does not open/)
		await db.execute(sql`update medical_profiles set insurance = null where id = ${profileId}`)
	})

	test('data:rekey seals plain text and values under an older key, in the database and in storage', async () => {
		const { m, profileId, document } = await filledProfile()
		const old = createDataCrypto([{ id: 'old', key: env.dataKeys.find((k) => k.id === 'old')!.key }])
		await db.execute(
			sql`update medical_profiles set additional_notes = 'written before encryption', insurance = ${old.sealText('Old plan', 'medical_profiles.insurance')} where id = ${profileId}`,
		)
		const raw = await storage.get(document.storageKey)
		const { sealedStorage } = await import('#app/adapters/storage.server.ts')
		await sealedStorage.put(document.storageKey, raw!.body, raw!.contentType)

		const columns = await resealColumns()
		expect(columns.medical_profiles!.resealed).toBeGreaterThanOrEqual(1)
		const [row] = rowsOf<{ notes: string; insurance: string }>(
			await db.execute(sql`select additional_notes as notes, insurance from medical_profiles where id = ${profileId}`),
		)
		for (const value of [row!.notes, row!.insurance]) expect(sealedData.textKeyId(value)).toBe(sealedData.currentKeyId)
		const profile = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profileId) })
		expect([profile?.additionalNotes, profile?.insurance]).toEqual(['written before encryption', 'Old plan'])

		expect((await resealFiles()).resealed).toBeGreaterThanOrEqual(1)
		const sealedFile = await sealedStorage.get(document.storageKey)
		expect(sealedData.bytesKeyId(sealedFile!.body)).toBe(sealedData.currentKeyId)
		expect(Buffer.from((await storage.get(document.storageKey))!.body).toString()).toContain(m.document)
		// A second run finds nothing left under the old key.
		expect((await resealColumns()).medical_profiles!.resealed).toBe(0)
	})

	test('the seal-data job seals what a release newly seals (old e-mails: recipient, subject, body), once; then it does nothing until the key or the sealed columns change', async () => {
		const tag = Math.random().toString(36).slice(2, 8)
		const to = `Old.${tag}@Example.test`
		// A message recorded before e-mails were sealed, as an upgraded database holds it: no recipient hash yet.
		await db.execute(
			sql`insert into emails (to_address, email_type, subject, text_body, status, tracking_id) values (${to}, 'order-confirmation', 'Old', ${`Plainbody${tag}`}, 'sent', ${`old-${tag}`})`,
		)
		expect(await db.$count(s.emails, messagesTo(to))).toBe(0)
		await db.delete(s.sealPasses)
		const first = await sealOutstanding()
		expect(first.columns?.emails?.resealed).toBeGreaterThanOrEqual(1)
		expect(first.files).not.toBeNull()
		const [row] = rowsOf<{ body: string }>(await db.execute(sql`select text_body as body from emails where tracking_id = ${`old-${tag}`}`))
		expect(sealedData.textKeyId(row!.body)).toBe(sealedData.currentKeyId)
		expect((await db.query.emails.findFirst({ where: eq(s.emails.trackingId, `old-${tag}`) }))?.textBody).toBe(`Plainbody${tag}`)
		const [stored] = rowsOf<{ to: string; subject: string }>(
			await db.execute(sql`select to_address as to, subject from emails where tracking_id = ${`old-${tag}`}`),
		)
		expect(stored!.to).not.toContain(tag)
		expect(sealedData.textKeyId(stored!.subject)).toBe(sealedData.currentKeyId)
		// Found by its recipient, written in any case, as account deletion looks for it.
		expect(await db.$count(s.emails, messagesTo(to.toLowerCase()))).toBe(1)
		expect(await sealOutstanding()).toEqual({ columns: null, files: null })
		// A sealed column added by a release changes the list's digest: the next pass runs again.
		await db.update(s.sealPasses).set({ fingerprint: 'an older list' }).where(eq(s.sealPasses.part, 'columns'))
		expect((await sealOutstanding()).columns).not.toBeNull()
	})
})
