import {
	bigint,
	bigserial,
	boolean,
	customType,
	index,
	integer,
	pgTable,
	primaryKey,
	text,
	timestamp,
	type PgColumnBuilderBase,
} from 'drizzle-orm/pg-core'
import { formerUserKey } from './accounts.ts'
import { createdAt, day, sparseIndex } from './columns.ts'
import { emails } from './mail.ts'
import { formerQrCodeKey } from './qr.ts'

const inet = customType<{ data: string }>({ dataType: () => 'inet' })
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

/**
 * One page view (app/domain/analytics/collect.server.ts). No identifier outlives a day: `visitorHash` is a hash of the
 * day's random salt, the address and the browser, and the salt is deleted after 48 hours; the address itself is
 * cleared after 48 hours too. Paths are stored with ids and tokens replaced (`/admin/orders/:id`).
 */
export const visits = pgTable(
	'visits',
	{
		id: bigserial({ mode: 'number' }).primaryKey(),
		visitedAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
		path: text().notNull(),
		visitorHash: bigint({ mode: 'bigint' }).notNull(),
		/** The browser had no "seen before" cookie, or its first visit was today (America/New_York). */
		isFirstVisit: boolean().notNull(),
		userId: formerUserKey(),
		ipAddress: inet(),
		browser: text(),
		deviceType: text(),
		referrerHost: text(),
		/** Arrived through a link in this message. */
		emailId: integer().references(() => emails.id, { onDelete: 'set null' }),
		isBot: boolean().default(false).notNull(),
		isOwner: boolean().default(false).notNull(),
		/** From an address under ANALYTICS_EXCLUDE_PREFIXES. */
		isExcluded: boolean().default(false).notNull(),
	},
	(t) => [
		index('visits_time_idx').on(t.visitedAt),
		sparseIndex('visits_email_time_idx', t.visitedAt, t.emailId),
		sparseIndex('visits_email_idx', t.emailId),
		// Most visits are anonymous: only signed-in ones are indexed (for account deletion and the foreign key).
		sparseIndex('visits_user_idx', t.userId),
		sparseIndex('visits_address_idx', t.visitedAt, t.ipAddress),
	],
)

/** The daily random salt of visitor hashes (Plausible's scheme); each is deleted 48 hours after its day began. */
export const analyticsSalts = pgTable('analytics_salts', {
	day: day().primaryKey(),
	salt: bytea().notNull(),
	createdAt: createdAt(),
})

/**
 * A rollup per hour, per dimension and value of the dimension, keyed by the three: `counts` are what is summed for
 * each. ('all', '') is the row of the hour's totals.
 */
function hourlyRollup<Name extends string, Counts extends Record<string, PgColumnBuilderBase>>(name: Name, counts: Counts) {
	const key = { hour: timestamp({ withTimezone: true }).notNull(), dimension: text().notNull(), value: text().notNull() }
	return pgTable(name, { ...key, ...counts }, (t) => [primaryKey({ columns: [t.dimension, t.hour, t.value] })])
}

/**
 * Page views per hour, per dimension: ('all', '') carries the totals; 'path', 'browser', 'device', 'referrer' and
 * 'email' ('1' for visits that came from an e-mail) one row per value. `visits` counts people (bots excluded);
 * `realVisits` also leaves out the owner and excluded addresses. Rebuilt from `visits` by analytics/rollup.server.ts.
 */
export const visitHourly = hourlyRollup('visit_hourly', {
	visits: integer().notNull(),
	realVisits: integer().notNull(),
	botVisits: integer().default(0).notNull(),
	ownerVisits: integer().default(0).notNull(),
	excludedVisits: integer().default(0).notNull(),
	lastVisitAt: timestamp({ withTimezone: true }),
	lastRealVisitAt: timestamp({ withTimezone: true }),
})

/** Each visitor (not bots) seen in an hour: distinct visitors of part of a day are counted here, never in `visits`. */
export const visitorHourly = pgTable(
	'visitor_hourly',
	{
		hour: timestamp({ withTimezone: true }).notNull(),
		visitorHash: bigint({ mode: 'bigint' }).notNull(),
		isReal: boolean().notNull(),
		isFirstVisit: boolean().notNull(),
		fromEmail: boolean().notNull(),
		visits: integer().notNull(),
	},
	(t) => [primaryKey({ columns: [t.hour, t.visitorHash] })],
)

/**
 * Distinct visitors of each whole ET day. A visitor hash lives one day (its salt is the day's), so the visitors of
 * several days are the sum of theirs. Written once the day's last hour is rolled up.
 */
export const visitorDaily = pgTable('visitor_daily', {
	day: day().primaryKey(),
	visitors: integer().notNull(),
	realUsers: integer().notNull(),
	firstTimeVisitors: integer().notNull(),
	returningVisitors: integer().notNull(),
	emailVisitors: integer().notNull(),
})

/** QR scans per hour: ('all', ''), 'scanner' and 'device' per value. */
export const scanHourly = hourlyRollup('scan_hourly', {
	scans: integer().notNull(),
	emergencyScans: integer().notNull(),
	lastScanAt: timestamp({ withTimezone: true }),
})

/** How far each rollup is complete: every hour before `doneUntil` is final in its table; later hours are read raw. */
export const rollupState = pgTable('rollup_state', {
	name: text().primaryKey(),
	doneUntil: timestamp({ withTimezone: true }).notNull(),
})

/** A QR code image downloaded by its owner (the admin header's "QR downloads"). */
export const qrDownloads = pgTable(
	'qr_downloads',
	{
		id: bigserial({ mode: 'number' }).primaryKey(),
		qrCodeId: formerQrCodeKey(),
		userId: formerUserKey(),
		downloadedAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
	},
	(t) => [
		index('qr_downloads_time_idx').on(t.downloadedAt),
		index('qr_downloads_code_idx').on(t.qrCodeId),
		index('qr_downloads_user_idx').on(t.userId),
	],
)
