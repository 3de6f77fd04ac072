import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { formerUserKey } from './accounts.ts'
import { createdAt, notNegative, oneOf, sealed } from './columns.ts'

export const EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const
export const EMAIL_EVENT_TYPES = ['open', 'click'] as const

// The kinds of message the app sends (the `type` given to sendEmail and queueEmail), by what they are about.
const ACCOUNT_EMAIL_TYPES = ['email-change', 'email-change-requested', 'email-changed'] as const
const SHOP_EMAIL_TYPES = ['order-confirmation', 'order-shipped', 'qr-request-confirmation', 'qr-request-fulfilled'] as const
const CARE_EMAIL_TYPES = ['scan-alert', 'helping-alert', 'review-reminder', 'caregiver-invitation'] as const
const FOUNDATION_EMAIL_TYPES = ['donation-receipt', 'visitor-notice'] as const
export const EMAIL_TYPES = [...ACCOUNT_EMAIL_TYPES, ...SHOP_EMAIL_TYPES, ...CARE_EMAIL_TYPES, ...FOUNDATION_EMAIL_TYPES] as const

/** Every message sent, and the outbox of those still to send (app/adapters/mail.server.ts). */
export const emails = pgTable(
	'emails',
	{
		id: serial().primaryKey(),
		userId: formerUserKey(),
		// Sealed, like the bodies: who was written to and about whom ("Someone is helping Ana now") is personal.
		toAddress: sealed('emails', 'to_address').notNull(),
		/** A keyed hash of the lower-cased recipient (mailAddressHash), for finding a person's messages. */
		toAddressHash: text(),
		emailType: text().notNull(),
		subject: sealed('emails', 'subject').notNull(),
		// Sealed: a review reminder lists a profile's medical facts, an alert where a person was taken.
		textBody: sealed('emails', 'text_body').notNull(),
		htmlBody: sealed('emails', 'html_body'),
		/** pending → sent, or failed after the last attempt; pending rows are retried. */
		status: text().$type<(typeof EMAIL_STATUSES)[number]>().default('pending').notNull(),
		attempts: integer().default(0).notNull(),
		lastError: text(),
		nextAttemptAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
		trackingId: text().notNull(),
		sentAt: timestamp({ withTimezone: true }),
		/** First read by a person: an open not by a mail proxy, or a click (email_events has each event). */
		openedAt: timestamp({ withTimezone: true }),
		clickedAt: timestamp({ withTimezone: true }),
		/** First open by a mail-privacy proxy (Apple, Gmail, Yahoo), which fetches images without anyone reading. */
		machineOpenedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('emails_tracking_unique').on(t.trackingId),
		index('emails_status_idx').on(t.status, t.nextAttemptAt),
		index('emails_created_idx').on(t.createdAt),
		index('emails_user_idx').on(t.userId),
		// Account deletion finds a person's messages by address too.
		index('emails_to_address_hash_idx').on(t.toAddressHash),
		check('emails_status_check', oneOf(t.status, EMAIL_STATUSES)),
		check('emails_email_type_check', oneOf(t.emailType, EMAIL_TYPES)),
		notNegative('emails_attempts_check', t.attempts),
	],
)

export const emailEvents = pgTable(
	'email_events',
	{
		id: serial().primaryKey(),
		emailId: integer()
			.notNull()
			.references(() => emails.id, { onDelete: 'cascade' }),
		type: text().$type<(typeof EMAIL_EVENT_TYPES)[number]>().notNull(),
		url: text(),
		/** An open fetched by a mail-privacy proxy (Apple Mail Privacy Protection, Gmail's image proxy), not a person. */
		machine: boolean().default(false).notNull(),
		createdAt: createdAt(),
	},
	(t) => [index('email_events_email_idx').on(t.emailId), check('email_events_type_check', oneOf(t.type, EMAIL_EVENT_TYPES))],
)
