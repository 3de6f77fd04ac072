import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { userKey } from './accounts.ts'
import { createdAt, oneOf, positive } from './columns.ts'
import { CONSENT_TYPES } from './values.ts'

/** Which form, and which version of its text: what a consent text is, and what a person agreed to. */
const formVersion = () => ({ consentType: text().notNull(), version: integer().notNull() })

export const consentTexts = pgTable(
	'consent_texts',
	{
		id: serial().primaryKey(),
		...formVersion(),
		title: text().notNull(),
		body: text().notNull(),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('consent_texts_type_version_unique').on(t.consentType, t.version),
		positive('consent_texts_version_check', t.version),
	],
)

export const consents = pgTable(
	'consents',
	{
		id: serial().primaryKey(),
		userId: userKey(),
		...formVersion(),
		agreed: boolean().notNull(),
		ipAddress: text(),
		userAgent: text(),
		createdAt: createdAt(),
	},
	(t) => [
		index('consents_user_type_idx').on(t.userId, t.consentType),
		// One agreement per person, form and version: a retried or doubled submission records nothing more.
		uniqueIndex('consents_agreed_once_unique')
			.on(t.userId, t.consentType, t.version)
			.where(sql`${t.agreed}`),
		positive('consents_version_check', t.version),
		check('consents_consent_type_check', oneOf(t.consentType, CONSENT_TYPES)),
	],
)
