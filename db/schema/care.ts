import { sql } from 'drizzle-orm'
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, linkToken, notNegative, sealed } from './columns.ts'
import { profileKey } from './profiles.ts'
import { qrCodeKey } from './qr.ts'

/**
 * The signed "Still correct" link of a review reminder: confirms the profile without signing in, once, until it
 * expires. Only the token's hash is kept.
 */
export const reviewLinks = pgTable(
	'review_links',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileKey(),
		...linkToken(),
		usedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('review_links_token_unique').on(t.tokenHash), index('review_links_profile_idx').on(t.medicalProfileId)],
)

/**
 * A SMART Health Link (HL7 SHL): the manifest address and the key that opens the profile's encrypted International
 * Patient Summary. The owner may guard it with a passcode (hashed; a few wrong tries end it), give it an expiry, and
 * revoke it. The key is sealed like the medical data it opens.
 */
export const smartHealthLinks = pgTable(
	'smart_health_links',
	{
		id: serial().primaryKey(),
		medicalProfileId: profileKey(),
		manifestId: text().notNull(),
		key: sealed('smart_health_links', 'key').notNull(),
		label: sealed('smart_health_links', 'label'),
		passcodeHash: text(),
		/** Wrong passcodes still allowed; at 0 the link is refused until the owner makes a new one. */
		attemptsLeft: integer(),
		expiresAt: timestamp({ withTimezone: true }),
		revokedAt: timestamp({ withTimezone: true }),
		accessCount: integer().default(0).notNull(),
		lastAccessedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('smart_health_links_manifest_unique').on(t.manifestId),
		index('smart_health_links_profile_idx').on(t.medicalProfileId),
		notNegative('smart_health_links_attempts_check', t.attemptsLeft),
	],
)

/**
 * "I'm helping this person now": what a responder sent from a code's page, and to how many people. A responder is known
 * again (for "Taken to hospital: …" later) by a random key in a cookie; only its hash is kept. The address it came from
 * is kept only as a keyed hash (reporterHash): limits, grouping and the owner's blocks go by it.
 */
export const helpingReports = pgTable(
	'helping_reports',
	{
		id: serial().primaryKey(),
		qrCodeId: qrCodeKey(),
		medicalProfileId: profileKey(),
		responderKeyHash: text().notNull(),
		reporterHash: text().default('').notNull(),
		/** Where they are, or where the person is being taken, as the responder wrote it. */
		message: sealed('helping_reports', 'message'),
		/** A shared location: "lat,lon ±metres". */
		location: sealed('helping_reports', 'location'),
		recipients: integer().default(0).notNull(),
		/** When it went out by e-mail; null while it waits to go with the sender's next update (or for good, once blocked). */
		mailedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		index('helping_reports_code_time_idx').on(t.qrCodeId, t.createdAt),
		index('helping_reports_profile_idx').on(t.medicalProfileId),
		index('helping_reports_responder_idx').on(t.responderKeyHash, t.createdAt),
		index('helping_reports_reporter_idx').on(t.reporterHash, t.createdAt),
		index('helping_reports_waiting_idx')
			.on(t.createdAt)
			.where(sql`${t.mailedAt} is null`),
	],
)

/** A sender the code's owner blocked: nothing more from that address (or that responder's cookie) is taken for the code. */
export const helpingBlocks = pgTable(
	'helping_blocks',
	{
		id: serial().primaryKey(),
		qrCodeId: qrCodeKey(),
		reporterHash: text().notNull(),
		responderKeyHash: text().notNull(),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('helping_blocks_code_reporter_unique').on(t.qrCodeId, t.reporterHash)],
)
