import { desc, eq, sql } from 'drizzle-orm'
import { deliverSoon, queueEmail } from '#app/adapters/mail.server.ts'
import {
	createBillingPortal,
	createDonationCheckout,
	createPaymentIntent,
	createSubscriptionCheckout,
	giftFromMetadata,
	retrieveCharge,
	retrievePaymentIntent,
	type GiftMetadata,
	type Stripe,
} from '#app/adapters/payments.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { env } from '#app/utils/env.server.ts'
import { db, type Executor } from '#db/client.ts'
import { donations, paymentEvents, SUBSCRIPTION_STATUSES, subscriptions } from '#db/schema.ts'
import { formatDollars, grossToCoverFees, planById, type PlanId } from './amounts.ts'
import { PAYMENT_METHOD_GROUPS } from './payment-methods.ts'
import { statementLink } from './statements.server.ts'
import type { Donation } from './schemas.ts'

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

/** Stripe's page to change or cancel the donor's monthly gift; null when they have none to manage. */
export async function manageSubscription(userId: string, returnUrl: string) {
	const current = await subscriptionOf(userId)
	return current?.customerId ? createBillingPortal(current.customerId, returnUrl) : null
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

/**
 * Records a confirmed charge once, whichever of its events comes first (the payment intent's or the Checkout
 * Session's), and queues its receipt in the same transaction. Returns whether it was new.
 */
async function recordPaidGift(tx: Executor, paid: PaidGift) {
	const feeCents = Math.max(0, paid.chargedCents - paid.gift.netCents)
	const confirmed = {
		userId: paid.gift.userId ?? null,
		donorEmail: paid.email,
		donorName: paid.name,
		amountCents: paid.chargedCents - feeCents,
		feeCents,
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
	if (!row) {
		// Seen already through the other event: fill in what this one knows.
		await tx
			.update(donations)
			.set({
				...(paid.checkoutSessionId && { checkoutSessionId: paid.checkoutSessionId }),
				...(paid.email && { donorEmail: sql`coalesce(${donations.donorEmail}, ${paid.email})` }),
				...(paid.name && { donorName: sql`coalesce(${donations.donorName}, ${paid.name})` }),
			})
			.where(paid.invoiceId ? eq(donations.invoiceId, paid.invoiceId) : eq(donations.paymentIntentId, paid.paymentIntentId!))
		return false
	}
	if (row.donorEmail) await queueEmail(tx, receipt(row))
	return true
}

function receipt(donation: typeof donations.$inferSelect) {
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

/**
 * One verified Stripe event. Its id is stored in the same transaction as its effect, so a replay changes nothing;
 * events may come in any order, each carrying what it needs.
 */
export async function handlePaymentEvent(event: Stripe.Event): Promise<Outcome> {
	const outcome = await db.transaction(async (tx) => {
		const [fresh] = await tx
			.insert(paymentEvents)
			.values({ id: event.id, type: event.type })
			.onConflictDoNothing()
			.returning({ id: paymentEvents.id })
		if (!fresh) return 'duplicate' as const
		return (await applyEvent(tx, event)) ? ('recorded' as const) : ('ignored' as const)
	})
	if (outcome === 'recorded') await deliverSoon()
	return outcome
}

async function applyEvent(tx: Executor, event: Stripe.Event) {
	switch (event.type) {
		case 'checkout.session.completed':
		case 'checkout.session.async_payment_succeeded': {
			const session = event.data.object
			const gift = giftFromMetadata(session.metadata)
			const paymentIntentId = idOf(session.payment_intent)
			if (gift && session.mode === 'subscription') return startedSubscription(tx, session, gift)
			// 'unpaid' (a bank transfer on its way) is recorded by async_payment_succeeded when it arrives.
			if (!gift || session.mode !== 'payment' || session.payment_status !== 'paid' || !paymentIntentId) return false
			return recordPaidGift(tx, {
				gift,
				paymentIntentId,
				checkoutSessionId: session.id,
				chargedCents: session.amount_total ?? 0,
				email: session.customer_details?.email ?? session.customer_email ?? null,
				name: session.customer_details?.name ?? null,
				paidAt: new Date(event.created * 1000),
			})
		}
		case 'payment_intent.succeeded':
			return recordIntent(tx, event.data.object, event.created)
		case 'payment_intent.payment_failed': {
			// Kept for the owner's view of what was tried; never shown as a gift, never over a confirmed one.
			const intent = event.data.object
			const gift = giftFromMetadata(intent.metadata)
			if (!gift || gift.kind !== 'donation') return false
			const [failed] = await tx
				.insert(donations)
				.values({
					userId: gift.userId ?? null,
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
		case 'charge.refunded': {
			const charge = event.data.object
			const paymentIntentId = idOf(charge.payment_intent)
			if (!paymentIntentId) return false
			// A refund that overtook its payment's events: what Stripe says of the payment now records it first.
			const [known] = await tx.select({ id: donations.id }).from(donations).where(eq(donations.paymentIntentId, paymentIntentId))
			if (!known) await recordIntent(tx, await retrievePaymentIntent(paymentIntentId), event.created)
			const refunded = await tx
				.update(donations)
				.set({
					// Refund events carry the running total, so an older one never lowers it.
					refundedCents: sql`greatest(${donations.refundedCents}, ${charge.amount_refunded})`,
					...(charge.refunded && { status: 'refunded' as const }),
				})
				.where(eq(donations.paymentIntentId, paymentIntentId))
				.returning({ id: donations.id })
			return refunded.length > 0
		}
		case 'invoice.paid': {
			const invoice = event.data.object
			const details = invoice.parent?.subscription_details
			const gift = giftFromMetadata(details?.metadata)
			if (!gift || gift.kind !== 'subscription' || !invoice.id) return false
			await updateSubscription(tx, idOf(details?.subscription), { status: 'active' })
			return recordPaidGift(tx, {
				gift,
				invoiceId: invoice.id,
				chargedCents: invoice.amount_paid,
				email: invoice.customer_email,
				name: invoice.customer_name,
				paidAt: new Date((invoice.status_transitions?.paid_at ?? event.created) * 1000),
			})
		}
		case 'invoice.payment_failed': {
			const details = event.data.object.parent?.subscription_details
			return updateSubscription(tx, idOf(details?.subscription), { status: 'past_due' })
		}
		case 'customer.subscription.updated':
		case 'customer.subscription.deleted': {
			const subscription = event.data.object
			const periodEnd = subscription.items?.data?.[0]?.current_period_end
			const status = SUBSCRIPTION_STATUSES.find((known) => known === subscription.status)
			return updateSubscription(tx, subscription.id, {
				...(status && { status }),
				...(periodEnd && { currentPeriodEnd: new Date(periodEnd * 1000) }),
			})
		}
		default:
			return false
	}
}

/** A monthly gift began: remembered for its donor (plans are for signed-in donors), its charges come as invoices. */
async function startedSubscription(tx: Executor, session: Stripe.Checkout.Session, gift: GiftMetadata) {
	const providerSubscriptionId = idOf(session.subscription)
	if (!gift.userId || !providerSubscriptionId) return false
	await tx
		.insert(subscriptions)
		.values({
			userId: gift.userId,
			plan: gift.tier,
			status: session.payment_status === 'paid' ? 'active' : 'incomplete',
			providerSubscriptionId,
			providerCustomerId: idOf(session.customer),
		})
		.onConflictDoUpdate({
			target: subscriptions.providerSubscriptionId,
			set: { providerCustomerId: idOf(session.customer), plan: gift.tier },
		})
	return true
}

type SubscriptionChange = Partial<Pick<typeof subscriptions.$inferInsert, 'status' | 'currentPeriodEnd'>>

async function updateSubscription(tx: Executor, providerSubscriptionId: string | null, change: SubscriptionChange) {
	if (!providerSubscriptionId) return false
	const updated = await tx
		.update(subscriptions)
		.set(change)
		.where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
		.returning({ id: subscriptions.id })
	return updated.length > 0
}

async function recordIntent(tx: Executor, intent: Stripe.PaymentIntent, created: number) {
	const gift = giftFromMetadata(intent.metadata)
	if (!gift || gift.kind !== 'donation' || intent.status !== 'succeeded') return false
	return recordPaidGift(tx, {
		gift,
		paymentIntentId: intent.id,
		chargedCents: intent.amount_received,
		...(await payerOf(intent)),
		paidAt: new Date(created * 1000),
	})
}

/**
 * Who to send the receipt to. A guest who paid in the Payment Element gave their e-mail with the card, on the charge;
 * a Checkout Session's own event brings it too, so a charge Stripe cannot show now is not an error.
 */
async function payerOf(intent: Stripe.PaymentIntent) {
	if (intent.receipt_email) return { email: intent.receipt_email, name: null }
	const chargeId = idOf(intent.latest_charge)
	const charge = chargeId ? await retrieveCharge(chargeId).catch(() => null) : null
	return { email: charge?.billing_details?.email ?? null, name: charge?.billing_details?.name ?? null }
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null))

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
