import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { deliverSoon, queueEmail, type EmailInput } from '#app/adapters/mail.server.ts'
import {
	createBillingPortal,
	createDonationCheckout,
	createPaymentIntent,
	createSubscriptionCheckout,
	PaymentsUnreachable,
	retrieveObject,
	type GiftMetadata,
	type StripeObjectKind,
} from '#app/adapters/payments.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { env } from '#app/utils/env.server.ts'
import { db, type Executor } from '#db/client.ts'
import { donations, paymentEvents, SUBSCRIPTION_STATUSES, subscriptions, users } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { formatDollars, grossToCoverFees, planById, type PlanId } from './amounts.ts'
import { PAYMENT_METHOD_GROUPS } from './payment-methods.ts'
import { statementLink } from './statements.server.ts'
import type { Donation } from './schemas.ts'
import {
	ChargeSchema,
	CheckoutSessionSchema,
	EventIdentitySchema,
	EventSchema,
	giftOf,
	InvoiceSchema,
	parseObject,
	PayerSchema,
	PaymentIntentSchema,
	SubscriptionSchema,
	type Charge,
	type CheckoutSession,
	type Invoice,
	type PaymentIntent,
	type StripeEvent,
} from './stripe-objects.ts'

export type Donor = { userId?: string; email?: string }

/** What the donor pays for a gift: the gift, plus the card fee when they chose to cover it. */
const chargeFor = (netCents: number, coverFees: boolean) => (coverFees ? grossToCoverFees(netCents) : netCents)

/**
 * Starts a one-off gift on Stripe's hosted Checkout page and answers its address. Nothing is recorded yet: a gift
 * counts only when Stripe's signed webhook confirms the charge.
 */
export async function startDonation(gift: Donation, donor: Donor, returnTo: { successUrl: string; cancelUrl: string }) {
	const amountCents = chargeFor(gift.netCents, gift.coverFees)
	return createDonationCheckout({
		gift: { kind: 'donation', tier: gift.tier, netCents: gift.netCents, userId: donor.userId },
		amountCents,
		email: donor.email,
		...returnTo,
	})
}

/** Starts a monthly gift on Stripe's hosted Checkout page; each month's charge is recorded when its invoice is paid. */
export async function startSubscription(
	planId: PlanId,
	coverFees: boolean,
	donor: Required<Donor>,
	returnTo: { successUrl: string; cancelUrl: string },
) {
	const plan = planById(planId)!
	return createSubscriptionCheckout({
		gift: { kind: 'subscription', tier: plan.id, netCents: plan.cents, userId: donor.userId },
		amountCents: chargeFor(plan.cents, coverFees),
		planName: plan.name,
		email: donor.email,
		...returnTo,
	})
}

/** The donor's monthly gift, the most recent one: its plan, status and renewal date; null without one. */
export async function subscriptionOf(userId: string) {
	const [row] = await db
		.select()
		.from(subscriptions)
		.where(eq(subscriptions.userId, userId))
		.orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
		.limit(1)
	return row ? { plan: row.plan, status: row.status, renewsAt: row.currentPeriodEnd, customerId: row.providerCustomerId } : null
}

export const NO_MONTHLY_GIFT = 'You have no monthly gift to change or cancel.'

/** Stripe's page to change or cancel the donor's monthly gift; refused (400) when they have none to manage. */
export async function manageSubscription(userId: string, returnUrl: string) {
	const current = await subscriptionOf(userId)
	if (!current?.customerId) throw new DomainError(400, NO_MONTHLY_GIFT)
	return createBillingPortal(current.customerId, returnUrl)
}

/**
 * The spec's in-page flow (spec 002 §7): a PaymentIntent the browser confirms at /checkout, with the methods Stripe
 * offers for it and the fee of each group. Recorded, as always, only when its webhook confirms it.
 */
export async function startPaymentIntent(gift: Donation, donor: Donor) {
	const amountCents = chargeFor(gift.netCents, gift.coverFees)
	const intent = await createPaymentIntent({
		gift: { kind: 'donation', tier: gift.tier, netCents: gift.netCents, userId: donor.userId },
		amountCents,
		email: donor.email,
	})
	const fees = PAYMENT_METHOD_GROUPS.map(({ id, methods, fee }) => ({
		group: id,
		methods,
		percent: fee.percent,
		fixedCents: fee.fixedCents,
	}))
	return { clientSecret: intent.clientSecret, amountCents, supportedMethods: intent.methods, fees }
}

export type PaidGift = {
	gift: GiftMetadata
	/** One of the two: a one-off gift's payment, or the invoice a monthly gift paid. */
	paymentIntentId?: string
	invoiceId?: string
	checkoutSessionId?: string
	chargedCents: number
	email: string | null
	name: string | null
	paidAt: Date
}

/** A gift's donor: the account it names while that account exists. A gift outlives its donor's account. */
async function donorOf(tx: Executor, gift: GiftMetadata, withoutDonor: boolean) {
	if (!gift.userId || withoutDonor) return null
	const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.id, gift.userId))
	return account?.id ?? null
}

/**
 * Records a charge Stripe confirmed once, whichever of its events comes first (the payment intent's or the Checkout
 * Session's), and queues its receipt in the same transaction. Returns whether it was new.
 */
async function recordPaidGift(tx: Executor, paid: PaidGift, withoutDonor: boolean) {
	const feeCents = Math.max(0, paid.chargedCents - paid.gift.netCents)
	const confirmed = {
		userId: await donorOf(tx, paid.gift, withoutDonor),
		donorEmail: paid.email,
		donorName: paid.name,
		amountCents: paid.chargedCents - feeCents,
		feeCents,
		chargedCents: paid.chargedCents,
		tier: paid.gift.tier,
		status: 'succeeded' as const,
		paidAt: paid.paidAt,
	}
	const [row] = await tx
		.insert(donations)
		.values({
			...confirmed,
			paymentIntentId: paid.paymentIntentId ?? null,
			invoiceId: paid.invoiceId ?? null,
			checkoutSessionId: paid.checkoutSessionId ?? null,
		})
		// A payment that failed first and then went through (another card) is now a gift; a confirmed one stays as it is.
		.onConflictDoUpdate({
			target: paid.invoiceId ? donations.invoiceId : donations.paymentIntentId,
			set: confirmed,
			setWhere: eq(donations.status, 'failed'),
		})
		.returning()
	if (!row) return fillIn(tx, paid)
	if (row.donorEmail) await queueEmail(tx, receipt(row))
	return true
}

type Details = Pick<PaidGift, 'paymentIntentId' | 'invoiceId' | 'checkoutSessionId' | 'email' | 'name'>

/** A recorded gift seen again through its other event: what this one knows that the first did not, never its amount. */
async function fillIn(tx: Executor, paid: Details) {
	const known = {
		...(paid.checkoutSessionId && { checkoutSessionId: paid.checkoutSessionId }),
		...(paid.email && { donorEmail: sql`coalesce(${donations.donorEmail}, ${paid.email})` }),
		...(paid.name && { donorName: sql`coalesce(${donations.donorName}, ${paid.name})` }),
	}
	// Drizzle refuses an update with nothing to set.
	if (!Object.keys(known).length) return false
	await tx
		.update(donations)
		.set(known)
		.where(paid.invoiceId ? eq(donations.invoiceId, paid.invoiceId) : eq(donations.paymentIntentId, paid.paymentIntentId!))
	return false
}

function receipt(donation: typeof donations.$inferSelect): EmailInput {
	const charged = donation.amountCents + donation.feeCents
	return {
		to: donation.donorEmail!,
		userId: donation.userId ?? undefined,
		type: 'donation-receipt',
		subject: `Your donation receipt from ${env.FOUNDATION_LEGAL_NAME}`,
		text: [
			`Thank you${donation.donorName ? `, ${donation.donorName}` : ''}, for your donation to ${env.FOUNDATION_LEGAL_NAME}.`,
			[
				`Amount: ${formatDollars(charged)}${donation.feeCents ? ` (a gift of ${formatDollars(donation.amountCents)} and ${formatDollars(donation.feeCents)} you added to cover the card fee)` : ''}`,
				`Date: ${formatDate(donation.paidAt ?? donation.createdAt)}`,
				`Receipt number: D-${donation.id}`,
				`Organisation: ${env.FOUNDATION_LEGAL_NAME}${env.FOUNDATION_TAX_ID ? `, tax ID ${env.FOUNDATION_TAX_ID}` : ''}`,
			].join('\n'),
			'No goods or services were provided in exchange for this contribution.',
			...(donation.invoiceId ? [`This is your monthly gift. To change or cancel it: ${new URL('/dashboard/giving', env.PUBLIC_URL)}`] : []),
			`Keep this e-mail for your records. Your statement of every gift this year, for your taxes: ${statementLink(donation.donorEmail!, (donation.paidAt ?? donation.createdAt).getUTCFullYear())}`,
			`Questions? Write to ${env.SUPPORT_EMAIL}.`,
		].join('\n\n'),
	}
}

type Outcome = 'recorded' | 'duplicate' | 'ignored'

/** What an event writes, decided before its transaction (Stripe is asked then, never while rows are locked). */
type Effect = (tx: Executor, withoutDonor: boolean) => Promise<boolean>

/**
 * One verified Stripe event. Its id is stored in the same transaction as its effect, so a replay changes nothing;
 * events may come in any order, each carrying what it needs. A gift is recorded only from Stripe's own copy of its
 * payment, read when the app has no record of it yet: an event's word for it is not enough, signed or not.
 *
 * An event the app cannot use (malformed, or data the database refuses) is a DomainError 400, remembered like any
 * other so that Stripe's retries of it are duplicates. Stripe out of reach (PaymentsUnreachable) or the database
 * down leaves it to be sent again.
 */
export async function handlePaymentEvent(event: unknown): Promise<Outcome> {
	const identity = parseObject(EventIdentitySchema, event, 'event')
	const [seen] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, identity.id))
	if (seen) return 'duplicate'
	let outcome: Outcome
	try {
		outcome = await recordEvent(identity, await effectOf(parseObject(EventSchema, event, 'event')))
	} catch (error) {
		const refusal = error instanceof DomainError ? error : refusalFor(error)
		if (!refusal) throw error
		// Stripe sends an event again for days until it gets a 2xx: refused once, each retry is a duplicate.
		await db.insert(paymentEvents).values(identity).onConflictDoNothing()
		throw refusal
	}
	if (outcome === 'recorded') deliverSoon()
	return outcome
}

async function recordEvent(event: { id: string; type: string }, effect: Effect | null): Promise<Outcome> {
	let withoutDonor = false
	for (let attempt = 1; ; attempt++) {
		try {
			return await db.transaction(async (tx) => {
				const [fresh] = await tx.insert(paymentEvents).values(event).onConflictDoNothing().returning({ id: paymentEvents.id })
				if (!fresh) return 'duplicate' as const
				return effect && (await effect(tx, withoutDonor)) ? ('recorded' as const) : ('ignored' as const)
			})
		} catch (error) {
			const code = sqlStateOf(error)
			// The donor's account was deleted after donorOf found it: the gift is recorded without its donor.
			if (code === FOREIGN_KEY_VIOLATION && !withoutDonor) withoutDonor = true
			// Two events of one payment at once: tried again, the second finds the first's row.
			else if (code !== UNIQUE_VIOLATION || attempt > 1) throw error
		}
	}
}

const FOREIGN_KEY_VIOLATION = '23503'
const UNIQUE_VIOLATION = '23505'

/** The SQLSTATE of a database error (Drizzle wraps the driver's as its cause). */
function sqlStateOf(error: unknown) {
	for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
		const code = (e as { code?: unknown }).code
		if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
	}
	return null
}

/** A data exception (class 22) or a broken constraint (class 23) is the event's doing: sent again, it fails again. */
function refusalFor(error: unknown) {
	if (error instanceof PaymentsUnreachable) return null
	const code = sqlStateOf(error)
	return code && /^2[23]/.test(code)
		? new DomainError(400, `The event could not be recorded: the database refused its data (${code})`)
		: null
}

async function effectOf({ type, created, data: { object } }: StripeEvent): Promise<Effect | null> {
	const what = `${type} event's object`
	switch (type) {
		case 'checkout.session.completed':
		case 'checkout.session.async_payment_succeeded':
			return sessionCompleted(parseObject(CheckoutSessionSchema, object, what), created)
		case 'payment_intent.succeeded':
			return paymentSucceeded(parseObject(PaymentIntentSchema, object, what), created)
		case 'payment_intent.payment_failed':
			return paymentFailed(parseObject(PaymentIntentSchema, object, what))
		case 'charge.refunded':
			return chargeRefunded(parseObject(ChargeSchema, object, what), created)
		case 'invoice.paid':
			return invoicePaid(parseObject(InvoiceSchema, object, what), created)
		case 'invoice.payment_failed': {
			const { subscription } = parseObject(InvoiceSchema, object, what)
			return (tx) => updateSubscription(tx, subscription, { status: 'past_due' })
		}
		case 'customer.subscription.updated':
		case 'customer.subscription.deleted': {
			const subscription = parseObject(SubscriptionSchema, object, what)
			const periodEnd = subscription.items?.data[0]?.current_period_end
			const status = SUBSCRIPTION_STATUSES.find((known) => known === subscription.status)
			return (tx) =>
				updateSubscription(tx, subscription.id, {
					...(status && { status }),
					...(periodEnd && { currentPeriodEnd: new Date(periodEnd * 1000) }),
				})
		}
		default:
			return null
	}
}

/** Stripe's own copy of what an event names, read with the same schema; null when Stripe holds no such object. */
async function stripeCopy<S extends z.ZodType<{ id: string }>>(kind: StripeObjectKind, id: string, schema: S) {
	const copy = await retrieveObject(kind, id)
	if (copy === null) return null
	const parsed = parseObject(schema, copy, `copy of ${kind} ${id} Stripe answered`)
	return parsed.id === id ? parsed : null
}

const CONFIRMED = ['succeeded', 'refunded'] as const

/** Whether a payment is recorded as a gift already: then its other events need not ask Stripe again. */
async function isRecorded(payment: { paymentIntentId: string } | { invoiceId: string }) {
	const [row] = await db
		.select({ id: donations.id })
		.from(donations)
		.where(
			and(
				'invoiceId' in payment ? eq(donations.invoiceId, payment.invoiceId) : eq(donations.paymentIntentId, payment.paymentIntentId),
				inArray(donations.status, [...CONFIRMED]),
			),
		)
		.limit(1)
	return Boolean(row)
}

/** A Checkout Session paid: a one-off gift, or the start of a monthly one. */
async function sessionCompleted(event: CheckoutSession, created: number): Promise<Effect | null> {
	if (!giftOf(event.metadata)) return null
	if (event.mode === 'subscription') {
		const session = await stripeCopy('checkout_session', event.id, CheckoutSessionSchema)
		const gift = session?.mode === 'subscription' ? giftOf(session.metadata) : null
		return session && gift ? (tx, withoutDonor) => startedSubscription(tx, session, gift, withoutDonor) : null
	}
	// 'unpaid' (a bank transfer on its way) is recorded by async_payment_succeeded when it arrives.
	const paidFor = (session: CheckoutSession) =>
		session.mode === 'payment' && session.payment_status === 'paid' ? session.payment_intent : null
	const details = (session: CheckoutSession, paymentIntentId: string) => ({
		paymentIntentId,
		checkoutSessionId: session.id,
		email: session.customer_details?.email ?? session.customer_email ?? null,
		name: session.customer_details?.name ?? null,
	})
	const claimed = paidFor(event)
	if (!claimed) return null
	if (await isRecorded({ paymentIntentId: claimed })) return (tx) => fillIn(tx, details(event, claimed))
	const session = await stripeCopy('checkout_session', event.id, CheckoutSessionSchema)
	const paymentIntentId = session && paidFor(session)
	const gift = paymentIntentId ? giftOf(session.metadata) : null
	if (!paymentIntentId || !gift) return null
	const paid = { gift, ...details(session, paymentIntentId), chargedCents: session.amount_total ?? 0, paidAt: new Date(created * 1000) }
	return (tx, withoutDonor) => recordPaidGift(tx, paid, withoutDonor)
}

async function paymentSucceeded(event: PaymentIntent, created: number): Promise<Effect | null> {
	if (giftOf(event.metadata)?.kind !== 'donation' || event.status !== 'succeeded') return null
	if (await isRecorded({ paymentIntentId: event.id }))
		return (tx) => fillIn(tx, { paymentIntentId: event.id, email: event.receipt_email ?? null, name: null })
	const paid = await confirmedPayment(event.id, created)
	return paid && ((tx, withoutDonor) => recordPaidGift(tx, paid, withoutDonor))
}

/** A one-off gift's payment as Stripe holds it, with its payer; null unless Stripe says it is ours and succeeded. */
async function confirmedPayment(paymentIntentId: string, created: number): Promise<PaidGift | null> {
	const intent = await stripeCopy('payment_intent', paymentIntentId, PaymentIntentSchema)
	const gift = intent?.status === 'succeeded' ? giftOf(intent.metadata) : null
	if (!intent || gift?.kind !== 'donation') return null
	return {
		gift,
		paymentIntentId,
		chargedCents: intent.amount_received,
		...(await payerOf(intent)),
		paidAt: new Date(created * 1000),
	}
}

/** Kept for the owner's view of what was tried; never shown as a gift, never over a confirmed one. */
async function paymentFailed(event: PaymentIntent): Promise<Effect | null> {
	if (giftOf(event.metadata)?.kind !== 'donation') return null
	const [tried] = await db.select({ id: donations.id }).from(donations).where(eq(donations.paymentIntentId, event.id))
	if (tried) return null
	const intent = await stripeCopy('payment_intent', event.id, PaymentIntentSchema)
	// One that has gone through since is recorded by its own payment_intent.succeeded.
	const gift = intent && intent.status !== 'succeeded' ? giftOf(intent.metadata) : null
	if (!intent || gift?.kind !== 'donation') return null
	return async (tx, withoutDonor) => {
		const [failed] = await tx
			.insert(donations)
			.values({
				userId: await donorOf(tx, gift, withoutDonor),
				donorEmail: intent.receipt_email ?? null,
				amountCents: gift.netCents,
				feeCents: Math.max(0, intent.amount - gift.netCents),
				tier: gift.tier,
				status: 'failed',
				paymentIntentId: intent.id,
			})
			.onConflictDoNothing({ target: donations.paymentIntentId })
			.returning({ id: donations.id })
		return Boolean(failed)
	}
}

/** A refund of a recorded gift; one that overtook its payment's events records the payment first, as Stripe holds it. */
async function chargeRefunded(event: Charge, created: number): Promise<Effect | null> {
	const paymentIntentId = event.payment_intent
	if (!paymentIntentId) return null
	if (await isRecorded({ paymentIntentId })) return (tx) => applyRefund(tx, paymentIntentId, event)
	const charge = await stripeCopy('charge', event.id, ChargeSchema)
	const paid = charge?.payment_intent === paymentIntentId ? await confirmedPayment(paymentIntentId, created) : null
	if (!charge || !paid) return null
	return async (tx, withoutDonor) => {
		await recordPaidGift(tx, paid, withoutDonor)
		return applyRefund(tx, paymentIntentId, charge)
	}
}

async function applyRefund(tx: Executor, paymentIntentId: string, charge: Charge) {
	const refunded = await tx
		.update(donations)
		.set({
			// Refund events carry the running total, so an older one never lowers it; no more than was charged comes back.
			refundedCents: sql`least(greatest(${donations.refundedCents}, ${charge.amount_refunded}), ${donations.chargedCents})`,
			...(charge.refunded && { status: 'refunded' as const }),
		})
		.where(and(eq(donations.paymentIntentId, paymentIntentId), inArray(donations.status, [...CONFIRMED])))
		.returning({ id: donations.id })
	return refunded.length > 0
}

/** A monthly gift's charge: its invoice as Stripe holds it, paid, for a subscription of ours. */
async function invoicePaid(event: Invoice, created: number): Promise<Effect | null> {
	if (giftOf(event.subscriptionMetadata)?.kind !== 'subscription') return null
	if (await isRecorded({ invoiceId: event.id }))
		return async (tx) => {
			await updateSubscription(tx, event.subscription, { status: 'active' })
			return fillIn(tx, { invoiceId: event.id, email: event.customer_email ?? null, name: event.customer_name ?? null })
		}
	const invoice = await stripeCopy('invoice', event.id, InvoiceSchema)
	const gift = invoice?.status === 'paid' ? giftOf(invoice.subscriptionMetadata) : null
	if (!invoice || gift?.kind !== 'subscription') return null
	if (event.subscription && event.subscription !== invoice.subscription) return null
	const paid = {
		gift,
		invoiceId: invoice.id,
		chargedCents: invoice.amount_paid,
		email: invoice.customer_email ?? null,
		name: invoice.customer_name ?? null,
		paidAt: new Date((invoice.status_transitions?.paid_at ?? created) * 1000),
	}
	return async (tx, withoutDonor) => {
		await updateSubscription(tx, invoice.subscription, { status: 'active' })
		return recordPaidGift(tx, paid, withoutDonor)
	}
}

/** A monthly gift began: remembered for its donor (plans are for signed-in donors), its charges come as invoices. */
async function startedSubscription(tx: Executor, session: CheckoutSession, gift: GiftMetadata, withoutDonor: boolean) {
	const userId = await donorOf(tx, gift, withoutDonor)
	if (!userId || !session.subscription) return false
	await tx
		.insert(subscriptions)
		.values({
			userId,
			plan: gift.tier,
			status: session.payment_status === 'paid' ? 'active' : 'incomplete',
			providerSubscriptionId: session.subscription,
			providerCustomerId: session.customer,
		})
		.onConflictDoUpdate({
			target: subscriptions.providerSubscriptionId,
			set: { providerCustomerId: session.customer, plan: gift.tier },
		})
	return true
}

type SubscriptionChange = Partial<Pick<typeof subscriptions.$inferInsert, 'status' | 'currentPeriodEnd'>>

async function updateSubscription(tx: Executor, providerSubscriptionId: string | null, change: SubscriptionChange) {
	if (!providerSubscriptionId || !Object.keys(change).length) return false
	const updated = await tx
		.update(subscriptions)
		.set(change)
		.where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
		.returning({ id: subscriptions.id })
	return updated.length > 0
}

/**
 * Who to send the receipt to. A guest who paid in the Payment Element gave their e-mail with the card, on the charge;
 * a Checkout Session's own event brings it too, so a charge Stripe cannot show now is not an error.
 */
async function payerOf(intent: PaymentIntent) {
	if (intent.receipt_email) return { email: intent.receipt_email, name: null }
	const charge = intent.latest_charge ? await retrieveObject('charge', intent.latest_charge).catch(() => null) : null
	const payer = PayerSchema.safeParse(charge).data?.billing_details
	return { email: payer?.email ?? null, name: payer?.name ?? null }
}

/** The donation-success page: whether Stripe has confirmed the gift this Checkout Session or PaymentIntent paid for. */
export async function donationFor(payment: { checkoutSessionId: string } | { paymentIntentId: string }) {
	const [row] = await db
		.select({ amountCents: donations.amountCents, feeCents: donations.feeCents, status: donations.status })
		.from(donations)
		.where(
			'checkoutSessionId' in payment
				? eq(donations.checkoutSessionId, payment.checkoutSessionId)
				: eq(donations.paymentIntentId, payment.paymentIntentId),
		)
	return row ?? null
}
