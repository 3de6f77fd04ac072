import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users } from './accounts.ts'
import { createdAt } from './columns.ts'

/** Every message sent, and the outbox of those still to send (app/adapters/mail.server.ts). */
export const emails = pgTable(
	'emails',
	{
		id: serial().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		toAddress: text().notNull(),
		emailType: text().notNull(),
		subject: text().notNull(),
		textBody: text().notNull(),
		htmlBody: text(),
		/** pending → sent, or failed after the last attempt; pending rows are retried. */
		status: text().default('pending').notNull(),
		attempts: integer().default(0).notNull(),
		lastError: text(),
		nextAttemptAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
		trackingId: text().notNull(),
		sentAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('emails_tracking_unique').on(t.trackingId),
		index('emails_status_idx').on(t.status, t.nextAttemptAt),
		index('emails_created_idx').on(t.createdAt),
	],
)

export const emailEvents = pgTable(
	'email_events',
	{
		id: serial().primaryKey(),
		emailId: integer()
			.notNull()
			.references(() => emails.id, { onDelete: 'cascade' }),
		type: text().$type<'open' | 'click'>().notNull(),
		url: text(),
		createdAt: createdAt(),
	},
	(t) => [index('email_events_email_idx').on(t.emailId)],
)
