import { sql } from 'drizzle-orm'
import { bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { formerUserKey, userKey } from './accounts.ts'
import { oneOf, sealed, sparseIndex } from './columns.ts'

export const PROFILE_AUDIT_KINDS = ['read', 'change'] as const
/**
 * Who acted, as far as the profile is concerned: its own account, someone who scanned a code, a link preview fetching
 * the page, someone holding one of its SMART Health Links, a caregiver the owner shared it with (actorUserId says who).
 */
export const PROFILE_AUDIT_ROLES = ['owner', 'responder', 'link_preview', 'link_recipient', 'caregiver'] as const

/**
 * Every read of a medical profile by someone other than its account (a scan, its photo or DNR document) and every
 * change of its medical data: who, when, from where and what (field names, never values). Append-only: a trigger
 * (migration 0010) refuses UPDATE, DELETE and TRUNCATE, except what erasing an account does (its own record goes, and
 * it is no longer named as the reader of others'). The record outlives a deleted profile.
 */
export const profileAudit = pgTable(
	'profile_audit',
	{
		id: bigserial({ mode: 'number' }).primaryKey(),
		occurredAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
		kind: text().$type<(typeof PROFILE_AUDIT_KINDS)[number]>().notNull(),
		/** What happened: `scan`, `scan-photo`, `scan-dnr`; `profile-created`, `personal-info`, `allergy-added`, ... */
		action: text().notNull(),
		profileId: integer().notNull(),
		/** The account the profile belongs to: erasing the account erases its record. */
		ownerUserId: userKey(),
		/** The signed-in person who acted; null for someone not signed in (a responder), or whose account is erased. */
		actorUserId: formerUserKey(),
		actorRole: text().$type<(typeof PROFILE_AUDIT_ROLES)[number]>().notNull(),
		ipAddress: text(),
		/** Coarse place, only from a trusted proxy's geolocation headers. */
		place: text(),
		/** The fields changed (names only); for a read, what was opened. */
		fields: text()
			.array()
			.notNull()
			.default(sql`'{}'::text[]`),
		/** Which code was scanned, which row changed: `QR code ABCD2345`, `allergy #12`; a deleted profile's name, so sealed. */
		detail: sealed('profile_audit', 'detail'),
	},
	(t) => [
		index('profile_audit_owner_idx').on(t.ownerUserId, t.occurredAt),
		index('profile_audit_time_idx').on(t.occurredAt),
		index('profile_audit_profile_idx').on(t.profileId, t.occurredAt),
		// Erasing an account clears it as a reader.
		sparseIndex('profile_audit_actor_idx', t.actorUserId),
		check('profile_audit_kind_check', oneOf(t.kind, PROFILE_AUDIT_KINDS)),
		check('profile_audit_role_check', oneOf(t.actorRole, PROFILE_AUDIT_ROLES)),
	],
)
