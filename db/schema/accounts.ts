import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, day, linkToken, rowKeys, timestamps } from './columns.ts'

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
		/**
		 * When the person last proved they receive mail at `email`: by opening the link of an e-mail change, or through
		 * an identity provider that vouched for the address. Null for an address nobody has confirmed (local signups).
		 */
		emailVerifiedAt: timestamp({ withTimezone: true }),
		...timestamps(),
	},
	(t) => [
		uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
		uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
		index('users_created_idx').on(t.createdAt),
	],
)

const userKeys = rowKeys(
	() => text(),
	() => users.id,
)
/** A row that belongs to an account: deleted with it. */
export const userKey = userKeys.belongsTo
/** An account's one row of something (its settings, its cart): keyed by the account, deleted with it. */
export const userCompanionKey = userKeys.companionOf
/** A row kept for the foundation's records when its account is deleted: it forgets whose it was. */
export const formerUserKey = userKeys.keptFrom

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
		userId: userKey(),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('connections_provider_unique').on(t.providerName, t.providerId), index('connections_user_idx').on(t.userId)],
)

/**
 * A change of e-mail waiting for the link sent to the new address to be opened: at most one per account (a new request
 * replaces it). Only a hash of the link's token is kept, so this table alone cannot confirm anything.
 */
export const emailChanges = pgTable(
	'email_changes',
	{
		userId: userCompanionKey(),
		newEmail: text().notNull(),
		...linkToken(),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('email_changes_token_unique').on(t.tokenHash), index('email_changes_expires_idx').on(t.expiresAt)],
)

/**
 * A person's recent sign-ins (the newest few per account are kept): when, from which address, and where, as far as a
 * trusted proxy's geolocation headers say. The session a sign-in started holds its id, so a page can name the one
 * before it.
 */
export const signIns = pgTable(
	'sign_ins',
	{
		id: serial().primaryKey(),
		userId: userKey(),
		ipAddress: text(),
		city: text(),
		region: text(),
		country: text(),
		createdAt: createdAt(),
	},
	(t) => [index('sign_ins_user_idx').on(t.userId, t.createdAt)],
)

export type User = typeof users.$inferSelect
