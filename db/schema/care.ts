import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, userKey } from './accounts.ts'
import { createdAt, linkToken, notNegative, oneOf, rowKeys, sealed, sparseIndex } from './columns.ts'
import { medicalProfiles, profileKey } from './profiles.ts'
import { qrCodeKey } from './qr.ts'
import { CAREGIVER_ROLES } from './values.ts'

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

/** pending: invited, the link not yet accepted; active: accepted; revoked by the owner; left by the caregiver. */
export const CAREGIVER_STATUSES = ['pending', 'active', 'revoked', 'left'] as const

/**
 * A person the owner of a profile asked to help keep it, by e-mail: an editor changes its medical information, a viewer
 * reads it; both get its alerts. The invitation is a single-use link (only its token's hash is kept) valid 7 days,
 * accepted by the account that holds the invited address. Erasing either account ends the sharing (the rows go with
 * it); a deleted profile leaves its invitations pointing at nothing, so their link can say so.
 */
export const profileCaregivers = pgTable(
	'profile_caregivers',
	{
		id: serial().primaryKey(),
		medicalProfileId: rowKeys(
			() => integer(),
			() => medicalProfiles.id,
		).keptFrom(),
		/** The profile's owner, who invited. */
		ownerUserId: userKey(),
		/** The invited address, lower-cased; sealed like every recipient of the app's mail. */
		email: sealed('profile_caregivers', 'email').notNull(),
		role: text().$type<(typeof CAREGIVER_ROLES)[number]>().notNull(),
		status: text().$type<(typeof CAREGIVER_STATUSES)[number]>().default('pending').notNull(),
		/** The account that accepted. */
		caregiverUserId: text().references(() => users.id, { onDelete: 'cascade' }),
		...linkToken(),
		acceptedAt: timestamp({ withTimezone: true }),
		endedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('profile_caregivers_token_unique').on(t.tokenHash),
		index('profile_caregivers_profile_idx').on(t.medicalProfileId, t.status),
		index('profile_caregivers_owner_idx').on(t.ownerUserId),
		sparseIndex('profile_caregivers_caregiver_idx', t.caregiverUserId),
		// One account is one caregiver of a profile at a time.
		uniqueIndex('profile_caregivers_active_unique')
			.on(t.medicalProfileId, t.caregiverUserId)
			.where(sql`${t.status} = 'active'`),
		check('profile_caregivers_role_check', oneOf(t.role, CAREGIVER_ROLES)),
		check('profile_caregivers_status_check', oneOf(t.status, CAREGIVER_STATUSES)),
		check('profile_caregivers_accepted_check', sql`${t.status} <> 'active' or ${t.caregiverUserId} is not null`),
	],
)
