import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { db, observeQueries } from '#db/client.ts'
import { consents, consentTexts } from '#db/schema.ts'
import { currentConsentTexts } from '#app/domain/consent/consent.server.ts'
import { CONSENT_TITLES } from '#app/domain/consent/consents.ts'
import { createUser } from '#tests/factories.ts'
import { consentRecords, type ConsentRecords } from './consent-records.server.ts'

const MINUTE = 60_000

async function versions() {
	return Object.fromEntries((await currentConsentTexts()).map((t) => [t.consentType, t.version])) as Record<string, number>
}

async function record(userId: string, consentType: string, version: number, agreed: boolean, createdAt: Date) {
	await db.insert(consents).values({ userId, consentType, version, agreed, createdAt })
}

const find = (result: ConsentRecords, userId: string) => result.records.find((r) => r.userId === userId)

test('per person: signed when the latest record of the current version agrees; totals and statistics (deltas)', async () => {
	const v = await versions()
	const before = await consentRecords()
	const all = await createUser({ firstName: 'Ada', lastName: 'Lovelace' })
	const none = await createUser({ consents: false, firstName: null, lastName: null, username: 'nobody-signed' })
	const mixed = await createUser({ consents: false, firstName: 'Mixed', lastName: null })
	const t0 = Date.now() - 60 * MINUTE
	await record(mixed.id, 'hipaa', v.hipaa!, true, new Date(t0))
	// Withdrawn later: the latest record decides.
	await record(mixed.id, 'hipaa', v.hipaa!, false, new Date(t0 + MINUTE))
	await record(mixed.id, 'terms', v.terms!, false, new Date(t0))
	await record(mixed.id, 'terms', v.terms!, true, new Date(t0 + 2 * MINUTE))
	await record(mixed.id, 'emergency_disclaimer', v.emergency_disclaimer!, true, new Date(t0 - MINUTE))
	await record(mixed.id, 'emergency_disclaimer', v.emergency_disclaimer!, false, new Date(t0 + 3 * MINUTE))

	const after = await consentRecords()
	const allRecord = find(after, all.id)!
	expect(allRecord).toMatchObject({
		userName: 'Ada Lovelace',
		email: all.email,
		hipaaConsent: { signed: true, version: v.hipaa },
		termsConsent: { signed: true, version: v.terms },
		emergencyConsent: { signed: true, version: v.emergency_disclaimer },
		totalConsents: 3,
	})
	const signedDates = [allRecord.hipaaConsent, allRecord.termsConsent, allRecord.emergencyConsent].map((c) => c.signedAt!)
	expect(allRecord.mostRecentConsentDate).toBe([...signedDates].sort().at(-1))

	expect(find(after, none.id)).toEqual({
		userId: none.id,
		userName: 'nobody-signed',
		email: none.email,
		hipaaConsent: { signed: false, signedAt: null, version: v.hipaa },
		termsConsent: { signed: false, signedAt: null, version: v.terms },
		emergencyConsent: { signed: false, signedAt: null, version: v.emergency_disclaimer },
		totalConsents: 0,
		mostRecentConsentDate: null,
	})
	expect(find(after, mixed.id)).toMatchObject({
		userName: 'Mixed',
		hipaaConsent: { signed: false, signedAt: null },
		termsConsent: { signed: true, signedAt: new Date(t0 + 2 * MINUTE).toISOString() },
		emergencyConsent: { signed: false },
		totalConsents: 1,
		mostRecentConsentDate: new Date(t0 + 2 * MINUTE).toISOString(),
	})

	expect({
		total: after.stats.total - before.stats.total,
		hipaa: after.stats.hipaa - before.stats.hipaa,
		terms: after.stats.terms - before.stats.terms,
		emergency_disclaimer: after.stats.emergency_disclaimer - before.stats.emergency_disclaimer,
	}).toEqual({ total: 3, hipaa: 1, terms: 2, emergency_disclaimer: 1 })

	const texts = await currentConsentTexts()
	expect(Object.keys(after.texts)).toEqual(['hipaa', 'terms', 'emergency_disclaimer'])
	for (const text of texts)
		expect(after.texts[text.consentType]).toEqual({ title: CONSENT_TITLES[text.consentType], body: text.body, version: text.version })
	expect(after.truncated).toBe(false)
})

test('publishing a new version unsigns everyone for that form until they agree to it', async () => {
	const v = await versions()
	const person = await createUser()
	const next = v.terms! + 1
	const [published] = await db
		.insert(consentTexts)
		.values({ consentType: 'terms', version: next, title: 'Terms of Service Agreement', body: 'Version two of the terms.' })
		.returning()
	try {
		const before = await consentRecords()
		expect(find(before, person.id)).toMatchObject({
			termsConsent: { signed: false, signedAt: null, version: next },
			hipaaConsent: { signed: true },
			totalConsents: 2,
		})
		expect(before.texts.terms).toEqual({ title: 'Terms of Service Agreement', body: 'Version two of the terms.', version: next })

		await record(person.id, 'terms', next, true, new Date())
		const after = await consentRecords()
		expect(find(after, person.id)).toMatchObject({ termsConsent: { signed: true, version: next }, totalConsents: 3 })
		expect(after.stats.terms - before.stats.terms).toBe(1)
	} finally {
		await db.delete(consents).where(and(eq(consents.consentType, 'terms'), eq(consents.version, next)))
		await db.delete(consentTexts).where(eq(consentTexts.id, published!.id))
	}
})

test('the newest accounts only, up to the limit, saying so; the number of queries does not grow with people', async () => {
	await createUser()
	const older = await createUser()
	const newer = await createUser()
	const capped = await consentRecords({ limit: 2 })
	expect(capped.records.map((r) => r.userId)).toEqual([newer.id, older.id])
	expect(capped.truncated).toBe(true)
	expect(capped.stats.total).toBeGreaterThanOrEqual(3)

	const queries: string[] = []
	const stop = observeQueries((q) => queries.push(q))
	try {
		await consentRecords()
	} finally {
		stop()
	}
	expect(queries.length).toBeLessThanOrEqual(5)
})
