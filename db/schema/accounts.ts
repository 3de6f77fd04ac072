import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, day, updatedAt } from './columns.ts'

export const users = pgTable(
	'users',
	{
		id: text().primaryKey(),
		email: text().notNull(),
		username: text(),
		passwordHash: text(),
		firstName: text(),
		lastName: text(),
		isGrandfathered: boolean().default(false).notNull(),
		/** Set when the person asked for no notices from the foundation (the owner's "notify recent visitors"). */
		noticesOptedOutAt: timestamp({ withTimezone: true }),
		/** The first-visit date the browser carried when the account was made (analytics' signups from a first visit). */
		firstVisitOn: day(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
		uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
		index('users_created_idx').on(t.createdAt),
	],
)

/** A browser session. The cookie carries only its signed id; `data` holds a guest's pending PIN, cart and flags. */
export const sessions = pgTable(
	'sessions',
	{
		id: text().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'cascade' }),
		data: jsonb().$type<Record<string, unknown>>().default({}).notNull(),
		expiresAt: timestamp({ withTimezone: true }).notNull(),
		createdAt: createdAt(),
	},
	(t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
)

export const connections = pgTable(
	'connections',
	{
		id: serial().primaryKey(),
		providerName: text().notNull(),
		providerId: text().notNull(),
		userId: text()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('connections_provider_unique').on(t.providerName, t.providerId), index('connections_user_idx').on(t.userId)],
)

export type User = typeof users.$inferSelect
