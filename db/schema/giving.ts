import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { formerUserKey, userKey } from './accounts.ts'
import { chargeChecks, charges, createdAt, notNegative, oneOf, timestamps } from './columns.ts'

/** A gift is pending until the payment provider's verified webhook says it succeeded or failed; it may be refunded later. */
export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'refunded'] as const

export const donations = pgTable(
	'donations',
	{
		id: serial().primaryKey(),
		userId: formerUserKey(),
		donorEmail: text(),
		donorName: text(),
		/** The gift itself; fees the donor chose to cover are recorded apart (feeCents), and were charged on top. */
		amountCents: integer().notNull(),
		feeCents: integer().default(0).notNull(),
		/** What Stripe charged: the gift and the fee once confirmed, 0 while pending or failed. Refunds are of it. */
		...charges(),
		currency: text().default('usd').notNull(),
		tier: text().notNull(),
		status: text().$type<(typeof DONATION_STATUSES)[number]>().default('pending').notNull(),
		paymentIntentId: text(),
		checkoutSessionId: text(),
		/** A monthly gift's charge: the invoice it paid. */
		invoiceId: text(),
		/** When the payment provider confirmed the charge. */
		paidAt: timestamp({ withTimezone: true }),
		...timestamps(),
	},
	(t) => [
		uniqueIndex('donations_payment_intent_unique').on(t.paymentIntentId),
		uniqueIndex('donations_checkout_session_unique').on(t.checkoutSessionId),
		uniqueIndex('donations_invoice_unique').on(t.invoiceId),
		index('donations_created_idx').on(t.createdAt),
		index('donations_user_idx').on(t.userId),
		// Account deletion finds a person's donations by e-mail too.
		index('donations_donor_email_idx').on(sql`lower(${t.donorEmail})`),
		notNegative('donations_amount_cents_check', t.amountCents),
		notNegative('donations_fee_cents_check', t.feeCents),
		...chargeChecks('donations', t),
		// Only a confirmed gift was charged, and its charge is the gift and the fee.
		check(
			'donations_charged_check',
			sql`${t.chargedCents} = 0 or (${t.status} in ('succeeded', 'refunded') and ${t.chargedCents} = ${t.amountCents} + ${t.feeCents})`,
		),
		check('donations_status_check', oneOf(t.status, DONATION_STATUSES)),
	],
)

/** A monthly gift's state, as the payment provider (Stripe) names it. */
export const SUBSCRIPTION_STATUSES = [
	'incomplete',
	'incomplete_expired',
	'trialing',
	'active',
	'past_due',
	'canceled',
	'unpaid',
	'paused',
] as const

export const subscriptions = pgTable(
	'subscriptions',
	{
		id: serial().primaryKey(),
		userId: userKey(),
		plan: text().notNull(),
		status: text().$type<(typeof SUBSCRIPTION_STATUSES)[number]>().default('incomplete').notNull(),
		providerSubscriptionId: text(),
		/** The payment provider's customer, for the page where the donor manages or cancels the gift. */
		providerCustomerId: text(),
		currentPeriodEnd: timestamp({ withTimezone: true }),
		...timestamps(),
	},
	(t) => [
		uniqueIndex('subscriptions_provider_unique').on(t.providerSubscriptionId),
		index('subscriptions_user_idx').on(t.userId),
		check('subscriptions_status_check', oneOf(t.status, SUBSCRIPTION_STATUSES)),
	],
)

/** Payment-provider webhook events already handled (webhooks are retried). */
export const paymentEvents = pgTable('payment_events', {
	id: text().primaryKey(),
	type: text().notNull(),
	receivedAt: createdAt(),
})
