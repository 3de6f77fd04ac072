import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { formerUserKey } from './accounts.ts'
import { createdAt, oneOf, positive } from './columns.ts'

/** Spec 002: a request waits in the owner's queue until it is mailed. */
export const QR_REQUEST_STATUSES = ['pending', 'fulfilled'] as const

/** Free QR codes requested by mail, for the owner's fulfilment queue. */
export const qrRequests = pgTable(
	'qr_requests',
	{
		id: serial().primaryKey(),
		userId: formerUserKey(),
		fullName: text().notNull(),
		email: text().notNull(),
		quantity: integer().notNull(),
		streetAddress: text().notNull(),
		city: text().notNull(),
		state: text().notNull(),
		postalCode: text().notNull(),
		country: text().notNull(),
		notes: text(),
		requestStatus: text().$type<(typeof QR_REQUEST_STATUSES)[number]>().default('pending').notNull(),
		fulfilledAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		index('qr_requests_status_idx').on(t.requestStatus, t.createdAt),
		index('qr_requests_user_idx').on(t.userId),
		// Account deletion finds a person's requests by e-mail too.
		index('qr_requests_email_idx').on(sql`lower(${t.email})`),
		positive('qr_requests_quantity_check', t.quantity),
		check('qr_requests_request_status_check', oneOf(t.requestStatus, QR_REQUEST_STATUSES)),
	],
)
