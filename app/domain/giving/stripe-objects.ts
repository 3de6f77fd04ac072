import { z } from 'zod'
import type { GiftMetadata } from '#app/adapters/payments.server.ts'
import { DomainError } from '#app/utils/errors.ts'

/*
 * What the webhook reads of Stripe's events and objects, checked before any of it is used: signed is not the same as
 * well-formed. Only the fields the app reads are named (the rest is dropped), and each is held to what Stripe
 * documents, so a value the database would refuse never gets that far.
 */

/** Stripe's largest charge, in cents ($999,999.99). */
export const MAX_CHARGE_CENTS = 99_999_999

/** PostgreSQL text cannot hold NUL. */
const text = (max: number) =>
	z
		.string()
		.max(max)
		.regex(/^[^\0]*$/)
export const StripeIdSchema = z.string().regex(/^\w{1,255}$/)
const cents = z.int().min(0).max(MAX_CHARGE_CENTS)
/** Seconds since 1970, up to the year 9999. */
const timestamp = z.int().min(0).max(253_402_300_799)
/** A reference to another object: its id, or the object itself when expanded. */
const ref = z
	.union([StripeIdSchema, z.object({ id: StripeIdSchema })])
	.nullish()
	.transform((value) => (typeof value === 'string' ? value : (value?.id ?? null)))
const metadata = z.record(text(40), text(500)).nullish()
const currency = z
	.string()
	.regex(/^[a-z]{3}$/)
	.nullish()

export const EventIdentitySchema = z.object({ id: StripeIdSchema, type: text(100).catch('malformed') })

export const EventSchema = z.object({
	id: StripeIdSchema,
	type: z.string().regex(/^[a-z0-9_.]{1,100}$/),
	created: timestamp,
	data: z.object({ object: z.unknown() }),
})
export type StripeEvent = z.output<typeof EventSchema>

export const CheckoutSessionSchema = z.object({
	id: StripeIdSchema,
	mode: text(40).nullish(),
	payment_status: text(40).nullish(),
	amount_total: cents.nullish(),
	currency,
	payment_intent: ref,
	subscription: ref,
	customer: ref,
	customer_email: text(512).nullish(),
	customer_details: z.object({ email: text(512).nullish(), name: text(512).nullish() }).nullish(),
	metadata,
})
export type CheckoutSession = z.output<typeof CheckoutSessionSchema>

export const PaymentIntentSchema = z.object({
	id: StripeIdSchema,
	status: text(40).nullish(),
	amount: cents,
	amount_received: cents,
	currency,
	receipt_email: text(512).nullish(),
	latest_charge: ref,
	metadata,
})
export type PaymentIntent = z.output<typeof PaymentIntentSchema>

export const ChargeSchema = z
	.object({
		id: StripeIdSchema,
		payment_intent: ref,
		amount: cents,
		amount_refunded: cents,
		refunded: z.boolean(),
		currency,
	})
	.refine((charge) => charge.amount_refunded <= charge.amount, { path: ['amount_refunded'] })
export type Charge = z.output<typeof ChargeSchema>

/** Only the payer's details of a charge, for the receipt. */
export const PayerSchema = z.object({
	billing_details: z.object({ email: text(512).nullish(), name: text(512).nullish() }).nullish(),
})

export const InvoiceSchema = z
	.object({
		id: StripeIdSchema,
		status: text(40).nullish(),
		amount_paid: cents,
		currency,
		customer_email: text(512).nullish(),
		customer_name: text(512).nullish(),
		status_transitions: z.object({ paid_at: timestamp.nullish() }).nullish(),
		parent: z.object({ subscription_details: z.object({ subscription: ref, metadata }).nullish() }).nullish(),
	})
	.transform(({ parent, ...invoice }) => ({
		...invoice,
		subscription: parent?.subscription_details?.subscription ?? null,
		subscriptionMetadata: parent?.subscription_details?.metadata ?? null,
	}))
export type Invoice = z.output<typeof InvoiceSchema>

export const SubscriptionSchema = z.object({
	id: StripeIdSchema,
	status: text(40).nullish(),
	items: z.object({ data: z.array(z.object({ current_period_end: timestamp.nullish() })).max(100) }).nullish(),
})

/** What the app writes on every gift it starts on Stripe (payments.server.ts toMetadata). */
const GiftMetadataSchema = z.object({
	kind: z.enum(['donation', 'subscription']),
	tier: text(100).min(1),
	net_cents: z
		.string()
		.regex(/^\d{1,8}$/)
		.transform(Number),
	user_id: text(255).optional(),
})

/** The gift an object's metadata describes; null when it is not one of ours; a 400 when it claims to be but is not. */
export function giftOf(metadata: Record<string, string> | null | undefined): GiftMetadata | null {
	if (metadata?.kind !== 'donation' && metadata?.kind !== 'subscription') return null
	const { kind, tier, net_cents, user_id } = parseObject(GiftMetadataSchema, metadata, "gift's metadata")
	return { kind, tier, netCents: net_cents, ...(user_id && { userId: user_id }) }
}

/** The value as the schema reads it, or a 400 naming the fields at fault (never their values: they may be personal). */
export function parseObject<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
	const parsed = schema.safeParse(value)
	if (parsed.success) return parsed.data
	const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'object')))].slice(0, 5)
	throw new DomainError(400, `The ${what} is malformed (${fields.join(', ')})`)
}
