import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './accounts.ts'
import { createdAt } from './columns.ts'

/** Free QR codes requested by mail, for the owner's fulfilment queue. */
export const qrRequests = pgTable(
	'qr_requests',
	{
		id: serial().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		fullName: text().notNull(),
		email: text().notNull(),
		quantity: integer().notNull(),
		streetAddress: text().notNull(),
		city: text().notNull(),
		state: text().notNull(),
		postalCode: text().notNull(),
		country: text().notNull(),
		notes: text(),
		requestStatus: text().default('pending').notNull(),
		fulfilledAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [index('qr_requests_status_idx').on(t.requestStatus, t.createdAt)],
)
