import { and, desc, eq, inArray, max, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { consents, consentTexts } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { CONSENT_REQUIRED, CONSENT_TITLES, CONSENT_TYPES, type ConsentType } from './schemas.ts'

export type ClientInfo = { ipAddress: string | null; userAgent: string | null }

const byFormOrder = <T extends { consentType: string }>(a: T, b: T) =>
	CONSENT_TYPES.indexOf(a.consentType as ConsentType) - CONSENT_TYPES.indexOf(b.consentType as ConsentType)

/**
 * The current text of each form is its highest version: publishing version n+1 asks everyone again.
 * (The column is not called `version`: Drizzle leaves it unqualified outside the subquery, where consents has one.)
 */
export function currentVersions() {
	return db
		.select({ consentType: consentTexts.consentType, version: max(consentTexts.version).as('current_version') })
		.from(consentTexts)
		.where(inArray(consentTexts.consentType, [...CONSENT_TYPES]))
		.groupBy(consentTexts.consentType)
		.as('current')
}

export async function currentConsentTexts() {
	const rows = await db
		.selectDistinctOn([consentTexts.consentType], {
			consentType: consentTexts.consentType,
			version: consentTexts.version,
			body: consentTexts.body,
		})
		.from(consentTexts)
		.where(inArray(consentTexts.consentType, [...CONSENT_TYPES]))
		.orderBy(consentTexts.consentType, desc(consentTexts.version))
	return rows
		.map((row) => ({ ...row, consentType: row.consentType as ConsentType, title: CONSENT_TITLES[row.consentType as ConsentType] }))
		.sort(byFormOrder)
}

/** Each form's current version and when this user agreed to that version (null: not yet). One query. */
export async function getConsentStatus(userId: string) {
	const current = currentVersions()
	const rows = await db
		.select({ consentType: current.consentType, version: current.version, signedAt: max(consents.createdAt) })
		.from(current)
		.leftJoin(
			consents,
			and(
				eq(consents.userId, userId),
				eq(consents.consentType, current.consentType),
				eq(consents.version, current.version),
				eq(consents.agreed, true),
			),
		)
		.groupBy(current.consentType, current.version)
	const forms = rows
		.map((row) => ({ consentType: row.consentType as ConsentType, version: Number(row.version), signedAt: row.signedAt ?? null }))
		.sort(byFormOrder)
	return {
		forms,
		missing: forms.filter((f) => !f.signedAt).map((f) => f.consentType),
		valid: forms.filter((f) => f.signedAt).map((f) => f.consentType),
	}
}
export type ConsentStatus = Awaited<ReturnType<typeof getConsentStatus>>

/** GET /api/consent/status answers both readers of the spec: the blocking view and the notice. */
export function consentStatusBody(status: ConsentStatus) {
	const allComplete = status.missing.length === 0
	return {
		allComplete,
		missing: status.missing,
		hasAllConsents: allComplete,
		missingConsents: status.missing,
		validConsents: status.valid,
		totalSigned: status.valid.length,
		totalRequired: status.forms.length,
	}
}

/** Records each agreement once: one already recorded for the same form and version (a retry, a double click) stays as it was. */
async function insertConsents(userId: string, forms: Array<{ consentType: ConsentType; version: number }>, client: ClientInfo) {
	if (!forms.length) return []
	return db
		.insert(consents)
		.values(forms.map((f) => ({ userId, consentType: f.consentType, version: f.version, agreed: true, ...client })))
		.onConflictDoNothing({ target: [consents.userId, consents.consentType, consents.version], where: sql`${consents.agreed}` })
		.returning({ consentType: consents.consentType, version: consents.version, createdAt: consents.createdAt })
}

export const CONSENT_FORM_UNAVAILABLE = 'This consent form is not available'

/**
 * POST /api/consent: agreement to the current text of one form; agreeing again answers the first agreement. A form
 * with no text published is refused (409).
 */
export async function recordConsent(userId: string, consentType: ConsentType, client: ClientInfo) {
	const status = await getConsentStatus(userId)
	const form = status.forms.find((f) => f.consentType === consentType)
	if (!form) throw new DomainError(409, CONSENT_FORM_UNAVAILABLE)
	const [row] = await insertConsents(userId, [form], client)
	if (row) return row
	const [first] = await db
		.select({ consentType: consents.consentType, version: consents.version, createdAt: consents.createdAt })
		.from(consents)
		.where(
			and(
				eq(consents.userId, userId),
				eq(consents.consentType, form.consentType),
				eq(consents.version, form.version),
				eq(consents.agreed, true),
			),
		)
	if (!first) throw new DomainError(409, CONSENT_FORM_UNAVAILABLE)
	return first
}

/**
 * The consent page: every missing form must be ticked for the version the person was shown, else nothing
 * is recorded (all or none) and it is refused (400). Answers the forms recorded.
 */
export async function agreeToMissingConsents(userId: string, shown: Partial<Record<ConsentType, number>>, client: ClientInfo) {
	const status = await getConsentStatus(userId)
	const missing = status.forms.filter((f) => !f.signedAt)
	if (missing.some((f) => shown[f.consentType] !== f.version)) throw new DomainError(400, CONSENT_REQUIRED)
	await insertConsents(userId, missing, client)
	return missing.map((f) => f.consentType)
}

/** Agreement to every current form at once (accounts prepared by tests and fixtures). */
export async function recordAllCurrentConsents(userId: string, client: ClientInfo) {
	const status = await getConsentStatus(userId)
	return insertConsents(
		userId,
		status.forms.filter((f) => !f.signedAt),
		client,
	)
}
