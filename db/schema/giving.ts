import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users } from './accounts.ts'
import { createdAt, updatedAt } from './columns.ts'

export const donations = pgTable(
	'donations',
	{
		id: serial().primaryKey(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		donorEmail: text(),
		donorName: text(),
		amountCents: integer().notNull(),
		currency: text().default('usd').notNull(),
		tier: text().notNull(),
		status: text().default('pending').notNull(),
		paymentIntentId: text(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('donations_payment_intent_unique').on(t.paymentIntentId),
		index('donations_created_idx').on(t.createdAt),
	],
)

export const subscriptions = pgTable(
	'subscriptions',
	{
		id: serial().primaryKey(),
		userId: text()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		plan: text().notNull(),
		status: text().default('incomplete').notNull(),
		providerSubscriptionId: text(),
		currentPeriodEnd: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('subscriptions_provider_unique').on(t.providerSubscriptionId),
		index('subscriptions_user_idx').on(t.userId),
	],
)

/** Payment-provider webhook events already handled (webhooks are retried). */
export const paymentEvents = pgTable('payment_events', {
	id: text().primaryKey(),
	type: text().notNull(),
	receivedAt: createdAt(),
})
