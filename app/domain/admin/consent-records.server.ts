import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { consents, users } from '#db/schema.ts'
import { currentConsentTexts, currentVersions } from '#app/domain/consent/consent.server.ts'
import { CONSENT_TITLES, CONSENT_TYPES, type ConsentType } from '#app/domain/consent/consents.ts'

export const CONSENT_RECORDS_LIMIT = 500

export type ConsentSignature = { signed: boolean; signedAt: string | null; version: number | null }

export type ConsentRecord = {
	userId: string
	userName: string
	email: string
	hipaaConsent: ConsentSignature
	termsConsent: ConsentSignature
	emergencyConsent: ConsentSignature
	/** Of the three, those signed for their current version. */
	totalConsents: number
	/** The latest of those signatures. */
	mostRecentConsentDate: string | null
}

export type ConsentRecords = {
	records: ConsentRecord[]
	texts: Record<ConsentType, { title: string; body: string; version: number | null }>
	stats: { total: number } & Record<ConsentType, number>
	/** More accounts exist than `records` holds (the newest are listed). */
	truncated: boolean
}

const RECORD_KEY: Record<ConsentType, 'hipaaConsent' | 'termsConsent' | 'emergencyConsent'> = {
	hipaa: 'hipaaConsent',
	terms: 'termsConsent',
	emergency_disclaimer: 'emergencyConsent',
}

/**
 * Each person's latest record of each form for its current version: signed exactly when that record agrees (a later
 * refusal or withdrawal undoes an earlier agreement; agreeing to an older version does not count).
 */
function latestCurrentRecords(userIds?: string[]) {
	const current = currentVersions()
	return db
		.selectDistinctOn([consents.userId, consents.consentType], {
			userId: consents.userId,
			consentType: consents.consentType,
			agreed: consents.agreed,
			createdAt: consents.createdAt,
		})
		.from(consents)
		.innerJoin(current, and(eq(current.consentType, consents.consentType), eq(current.version, consents.version)))
		.where(userIds ? inArray(consents.userId, userIds) : undefined)
		.orderBy(consents.userId, consents.consentType, desc(consents.createdAt), desc(consents.id))
}

/**
 * GET /api/admin/consent-records and the Consent tab (spec 002 §3 "Admin consent records"): per-person signature
 * status for the newest `limit` accounts (default 500; `truncated` says when there are more), the current texts,
 * and statistics over every account. Five queries, whatever the number of people.
 */
export async function consentRecords({ limit = CONSENT_RECORDS_LIMIT }: { limit?: number } = {}): Promise<ConsentRecords> {
	const cap = Number.isInteger(limit) ? Math.min(Math.max(limit, 1), CONSENT_RECORDS_LIMIT) : CONSENT_RECORDS_LIMIT
	const latest = latestCurrentRecords().as('latest')
	const [people, texts, [totals], signedCounts] = await Promise.all([
		db
			.select({
				id: users.id,
				email: users.email,
				username: users.username,
				firstName: users.firstName,
				lastName: users.lastName,
			})
			.from(users)
			.orderBy(desc(users.createdAt), desc(users.id))
			.limit(cap + 1),
		currentConsentTexts(),
		db.select({ total: sql<number>`count(*)::int` }).from(users),
		db
			.select({ consentType: latest.consentType, count: sql<number>`count(*)::int` })
			.from(latest)
			.where(eq(latest.agreed, true))
			.groupBy(latest.consentType),
	])
	const truncated = people.length > cap
	const listed = people.slice(0, cap)
	const records = listed.length ? await latestCurrentRecords(listed.map((p) => p.id)) : []

	const versionOf = new Map(texts.map((text) => [text.consentType, text.version]))
	const signedAt = new Map<string, Date>()
	for (const record of records) if (record.agreed) signedAt.set(`${record.userId}:${record.consentType}`, record.createdAt)

	const stats = { total: totals?.total ?? 0, hipaa: 0, terms: 0, emergency_disclaimer: 0 }
	for (const row of signedCounts) if (row.consentType in stats) stats[row.consentType as ConsentType] = row.count

	return {
		records: listed.map((person) => {
			const signatures = Object.fromEntries(
				CONSENT_TYPES.map((type) => {
					const at = signedAt.get(`${person.id}:${type}`)
					return [RECORD_KEY[type], { signed: Boolean(at), signedAt: at?.toISOString() ?? null, version: versionOf.get(type) ?? null }]
				}),
			) as Pick<ConsentRecord, 'hipaaConsent' | 'termsConsent' | 'emergencyConsent'>
			const dates = CONSENT_TYPES.map((type) => signedAt.get(`${person.id}:${type}`)).filter((d): d is Date => Boolean(d))
			const mostRecent = dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null
			return {
				userId: person.id,
				userName: [person.firstName, person.lastName].filter(Boolean).join(' ').trim() || person.username || person.email,
				email: person.email,
				...signatures,
				totalConsents: dates.length,
				mostRecentConsentDate: mostRecent?.toISOString() ?? null,
			}
		}),
		texts: Object.fromEntries(
			CONSENT_TYPES.map((type) => {
				const text = texts.find((t) => t.consentType === type)
				return [type, { title: text?.title ?? CONSENT_TITLES[type], body: text?.body ?? '', version: text?.version ?? null }]
			}),
		) as ConsentRecords['texts'],
		stats,
		truncated,
	}
}
