import { messagesTo } from '#app/adapters/mail.server.ts'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import * as webhook from '#app/routes/api/stripe-webhook.ts'
import * as success from '#app/routes/giving/donation-success.tsx'
import { call, getRequest, unwrap } from '#tests/factories.ts'
import { giftMetadata, signed, stripeEvent, uniqueId, mockStripe } from '#tests/stripe.ts'

const stripe = mockStripe()

async function deliver(event: unknown, sign = signed(event)) {
	const request = new Request('http://localhost:3000/api/stripe/webhook', {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': sign.signature },
		body: sign.payload,
	})
	const { result } = await call(webhook.action, request)
	// Thrown out of the route, an error is the 500 React Router would answer.
	if (result instanceof Error) return { status: 500, body: result.message, headers: new Headers() }
	return unwrap(result)
}

/** A guest's paid Checkout Session for a gift of `net` cents, charged `charged` cents, as Stripe holds it. */
function paidSession(net: number, charged = net) {
	const email = `${uniqueId('donor')}@example.com`
	const session = {
		id: uniqueId('cs_test'),
		object: 'checkout.session',
		mode: 'payment',
		status: 'complete',
		payment_status: 'paid',
		amount_total: charged,
		currency: 'usd',
		payment_intent: uniqueId('pi'),
		customer_details: { email, name: 'Grace Hopper' },
		metadata: giftMetadata(net),
	}
	stripe.know(session)
	return { session, email }
}

const donationsOf = (paymentIntentId: string) => db.select().from(s.donations).where(eq(s.donations.paymentIntentId, paymentIntentId))
const receiptsTo = (email: string) =>
	db
		.select()
		.from(s.emails)
		.where(and(messagesTo(email), eq(s.emails.emailType, 'donation-receipt')))

describe('the Stripe webhook', () => {
	test('a $15 guest gift is recorded once, with one receipt, however often and in whatever order its events come', async () => {
		const { session, email } = paidSession(1500)
		const completed = stripeEvent('checkout.session.completed', session)
		expect(await deliver(completed)).toMatchObject({ status: 200, body: { outcome: 'recorded' } })
		// Stripe retries: the same event again changes nothing.
		expect(await deliver(completed)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } })
		// The payment intent's own event for the same charge is the same gift.
		const intent = {
			id: session.payment_intent,
			object: 'payment_intent',
			status: 'succeeded',
			amount: 1500,
			amount_received: 1500,
			metadata: giftMetadata(1500),
		}
		expect(await deliver(stripeEvent('payment_intent.succeeded', intent))).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
		const [donation, ...more] = await donationsOf(session.payment_intent)
		expect(more).toEqual([])
		expect(donation).toMatchObject({
			amountCents: 1500,
			feeCents: 0,
			status: 'succeeded',
			tier: 'advocate',
			donorEmail: email,
			checkoutSessionId: session.id,
		})
		const receipts = await receiptsTo(email)
		expect(receipts).toHaveLength(1)
		expect(receipts[0]!.textBody).toContain('Amount: $15.00')
		expect(receipts[0]!.textBody).toContain('Hit Me Helpers Foundation')
		expect(receipts[0]!.textBody).toContain('No goods or services were provided in exchange for this contribution.')
		expect(receipts[0]!.status).toBe('pending') // its 'send-email' job sends it
		expect(receipts[0]!.textBody).toMatch(/\/giving\/statement\?email=.*&year=\d{4}&sig=/)
		// The page Stripe returns the donor to now says the gift is confirmed.
		const page = await unwrap((await call(success.loader, getRequest(`/donation-success?session_id=${session.id}`))).result)
		expect(page.body).toMatchObject({ confirmed: { charged: '$15.00' } })
	})

	test('fees the donor covered are recorded apart from the gift', async () => {
		const { session, email } = paidSession(1500, 1576)
		await deliver(stripeEvent('checkout.session.completed', session))
		expect((await donationsOf(session.payment_intent))[0]).toMatchObject({ amountCents: 1500, feeCents: 76 })
		expect((await receiptsTo(email))[0]!.textBody).toContain('Amount: $15.76 (a gift of $15.00 and $0.76 you added to cover the card fee)')
	})

	test('a forged, altered or stale signature is a 400 and records nothing, not even the event', async () => {
		const { session } = paidSession(1500)
		const event = stripeEvent('checkout.session.completed', session)
		const forged = signed(event, 'whsec_someone_else')
		expect((await deliver(event, forged)).status).toBe(400)
		const altered = signed(event)
		expect((await deliver(event, { payload: altered.payload.replace('1500', '150000'), signature: altered.signature })).status).toBe(400)
		expect((await deliver(event, signed(event, undefined, Math.floor(Date.now() / 1000) - 600))).status).toBe(400)
		expect((await deliver(event, { payload: signed(event).payload, signature: '' })).status).toBe(400)
		expect(await donationsOf(session.payment_intent)).toEqual([])
		expect(await db.select().from(s.paymentEvents).where(eq(s.paymentEvents.id, event.id))).toEqual([])
	})

	test('an unpaid session (a bank transfer on its way) waits for async_payment_succeeded', async () => {
		const { session } = paidSession(5000)
		await deliver(stripeEvent('checkout.session.completed', { ...session, payment_status: 'unpaid' }))
		expect(await donationsOf(session.payment_intent)).toEqual([])
		await deliver(stripeEvent('checkout.session.async_payment_succeeded', session))
		expect(await donationsOf(session.payment_intent)).toHaveLength(1)
	})

	test("a refund is recorded; one that overtakes its payment's events reads the payment from Stripe first", async () => {
		const { session } = paidSession(1500)
		await deliver(stripeEvent('checkout.session.completed', session))
		const charge = {
			id: uniqueId('ch'),
			object: 'charge',
			payment_intent: session.payment_intent,
			amount: 1500,
			amount_refunded: 500,
			refunded: false,
		}
		await deliver(stripeEvent('charge.refunded', charge))
		expect((await donationsOf(session.payment_intent))[0]).toMatchObject({ refundedCents: 500, status: 'succeeded' })
		await deliver(stripeEvent('charge.refunded', { ...charge, amount_refunded: 1500, refunded: true }))
		// An older event arriving late never lowers the total.
		await deliver(stripeEvent('charge.refunded', charge))
		expect((await donationsOf(session.payment_intent))[0]).toMatchObject({ refundedCents: 1500, status: 'refunded' })

		const early = uniqueId('pi')
		stripe.know({
			id: early,
			object: 'payment_intent',
			status: 'succeeded',
			amount: 2000,
			amount_received: 2000,
			metadata: giftMetadata(2000, 'custom'),
		})
		const refund = stripe.know({
			...charge,
			id: uniqueId('ch'),
			payment_intent: early,
			amount: 2000,
			amount_refunded: 2000,
			refunded: true,
		})
		expect(await deliver(stripeEvent('charge.refunded', refund))).toMatchObject({ status: 200, body: { outcome: 'recorded' } })
		expect(await donationsOf(early)).toEqual([expect.objectContaining({ amountCents: 2000, refundedCents: 2000, status: 'refunded' })])
	})

	test("events that are not the app's (no gift metadata, other types) are acknowledged and change nothing", async () => {
		const { session } = paidSession(1500)
		const foreign = stripeEvent('checkout.session.completed', { ...session, metadata: {} })
		expect(await deliver(foreign)).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
		expect(await deliver(stripeEvent('customer.created', { id: uniqueId('cus') }))).toMatchObject({
			status: 200,
			body: { outcome: 'ignored' },
		})
		expect(await donationsOf(session.payment_intent)).toEqual([])
	})
})

describe('a payment in the in-page card form', () => {
	test("a guest's receipt goes to the e-mail they gave with the card", async () => {
		const id = uniqueId('pi')
		const who = uniqueId('carder')
		const intent = {
			id,
			object: 'payment_intent',
			status: 'succeeded',
			amount: 2500,
			amount_received: 2500,
			receipt_email: null,
			latest_charge: `ch_x_email_${who}`,
			metadata: giftMetadata(2500, 'custom'),
		}
		stripe.know(intent)
		await deliver(stripeEvent('payment_intent.succeeded', intent))
		expect((await donationsOf(id))[0]).toMatchObject({ donorEmail: `${who}@example.com`, donorName: 'Card Holder' })
		expect(await receiptsTo(`${who}@example.com`)).toHaveLength(1)
	})
})

describe('a payment that fails', () => {
	test('is kept as failed, never shown as a gift, and becomes one with its receipt if it then goes through', async () => {
		const id = uniqueId('pi')
		const email = `${uniqueId('donor')}@example.com`
		const intent = {
			id,
			object: 'payment_intent',
			status: 'requires_payment_method',
			amount: 1500,
			amount_received: 0,
			receipt_email: email,
			metadata: giftMetadata(1500),
		}
		stripe.know(intent)
		expect(await deliver(stripeEvent('payment_intent.payment_failed', intent))).toMatchObject({ body: { outcome: 'recorded' } })
		expect(await donationsOf(id)).toEqual([expect.objectContaining({ status: 'failed', paidAt: null })])
		expect(await receiptsTo(email)).toEqual([])
		const succeeded = stripe.know({ ...intent, status: 'succeeded', amount_received: 1500 })
		await deliver(stripeEvent('payment_intent.succeeded', succeeded))
		expect(await donationsOf(id)).toEqual([expect.objectContaining({ status: 'succeeded', amountCents: 1500 })])
		expect(await receiptsTo(email)).toHaveLength(1)
		// A late failure event never undoes a confirmed gift.
		await deliver(stripeEvent('payment_intent.payment_failed', intent))
		expect((await donationsOf(id))[0]).toMatchObject({ status: 'succeeded' })
	})
})
