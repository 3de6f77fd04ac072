import { eq, sql } from 'drizzle-orm'
import { deliverPendingEmails, queueEmail } from '#app/adapters/mail.server.ts'
import {
	createDonationCheckout,
	giftFromMetadata,
	retrievePaymentIntent,
	type GiftMetadata,
	type Stripe,
} from '#app/adapters/payments.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { env } from '#app/utils/env.server.ts'
import { db, type Executor } from '#db/client.ts'
import { donations, paymentEvents } from '#db/schema.ts'
import { formatDollars, grossToCoverFees } from './amounts.ts'
import { statementLink } from './statements.server.ts'
import type { Donation } from './schemas.ts'

export type Donor = { userId?: string; email?: string }

/**
 * Starts a one-off gift on Stripe's hosted Checkout page and answers its address. Nothing is recorded yet: a gift
 * counts only when Stripe's signed webhook confirms the charge.
 */
export async function startDonation(gift: Donation, donor: Donor, returnTo: { successUrl: string; cancelUrl: string }) {
	const amountCents = gift.coverFees ? grossToCoverFees(gift.netCents) : gift.netCents
	return createDonationCheckout({
		gift: { kind: 'donation', tier: gift.tier, netCents: gift.netCents, userId: donor.userId },
		amountCents,
		email: donor.email,
		...returnTo,
	})
}

export type PaidGift = {
	gift: GiftMetadata
	paymentIntentId: string
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
	const [row] = await tx
		.insert(donations)
		.values({
			userId: paid.gift.userId ?? null,
			donorEmail: paid.email,
			donorName: paid.name,
			amountCents: paid.chargedCents - feeCents,
			feeCents,
			tier: paid.gift.tier,
			status: 'succeeded',
			paymentIntentId: paid.paymentIntentId,
			checkoutSessionId: paid.checkoutSessionId ?? null,
			paidAt: paid.paidAt,
		})
		.onConflictDoNothing({ target: donations.paymentIntentId })
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
			.where(eq(donations.paymentIntentId, paid.paymentIntentId))
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
	if (outcome === 'recorded') await deliverPendingEmails(5)
	return outcome
}

async function applyEvent(tx: Executor, event: Stripe.Event) {
	switch (event.type) {
		case 'checkout.session.completed':
		case 'checkout.session.async_payment_succeeded': {
			const session = event.data.object
			const gift = giftFromMetadata(session.metadata)
			const paymentIntentId = idOf(session.payment_intent)
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
		default:
			return false
	}
}

function recordIntent(tx: Executor, intent: Stripe.PaymentIntent, created: number) {
	const gift = giftFromMetadata(intent.metadata)
	if (!gift || gift.kind !== 'donation' || intent.status !== 'succeeded') return Promise.resolve(false)
	return recordPaidGift(tx, {
		gift,
		paymentIntentId: intent.id,
		chargedCents: intent.amount_received,
		email: intent.receipt_email ?? null,
		name: null,
		paidAt: new Date(created * 1000),
	})
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null))

/** The donation-success page: whether Stripe has confirmed the gift this Checkout Session paid for. */
export async function donationForSession(checkoutSessionId: string) {
	const [row] = await db
		.select({ amountCents: donations.amountCents, feeCents: donations.feeCents, status: donations.status })
		.from(donations)
		.where(eq(donations.checkoutSessionId, checkoutSessionId))
	return row ?? null
}
