import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { formerUserKey } from './accounts.ts'
import { createdAt, positive } from './columns.ts'

/** Fixed-window counters shared by every app instance (app/utils/rate-limit.server.ts). */
export const rateLimits = pgTable(
	'rate_limits',
	{
		key: text().primaryKey(),
		count: integer().notNull(),
		resetAt: timestamp({ withTimezone: true }).notNull(),
	},
	// The periodic cleanup deletes by reset_at.
	(t) => [index('rate_limits_reset_idx').on(t.resetAt), positive('rate_limits_count_check', t.count)],
)

export const auditLog = pgTable(
	'audit_log',
	{
		id: bigserial({ mode: 'number' }).primaryKey(),
		actorUserId: formerUserKey(),
		action: text().notNull(),
		subjectType: text(),
		subjectId: text(),
		details: jsonb().$type<Record<string, unknown>>(),
		ipAddress: text(),
		createdAt: createdAt(),
	},
	(t) => [index('audit_log_time_idx').on(t.createdAt), index('audit_log_actor_idx').on(t.actorUserId)],
)

/**
 * The last complete pass that sealed every value ('columns') or stored file ('files') under a key: what the
 * 'seal-data' job compares with the current key and the schema's sealed columns, so it works only when one changed.
 */
export const sealPasses = pgTable('seal_passes', {
	part: text().primaryKey(),
	keyId: text().notNull(),
	/** For 'columns': a digest of the sealed column list, so a column sealed in a later release is sealed too. */
	fingerprint: text().notNull(),
	completedAt: timestamp({ withTimezone: true }).notNull(),
})
