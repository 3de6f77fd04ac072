import { messagesTo } from '#app/adapters/mail.server.ts'
import { randomUUID } from 'node:crypto'
import { and, eq, or, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { deleteAccount } from '#app/domain/accounts/accounts.server.ts'
import * as webhook from '#app/routes/api/stripe-webhook.ts'
import { call, createUser, unwrap } from '#tests/factories.ts'
import { giftMetadata, mockStripe, signed, stripeEvent, uniqueId } from '#tests/stripe.ts'

// Signed events that once made the webhook answer 500 on every retry, or record a gift Stripe never took: each is
// answered once (2xx, or a 400 whose retries are duplicates) and records only what Stripe's own copy confirms.

const stripe = mockStripe()

/** What Stripe's delivery sees: an error thrown out of the route is the 500 React Router would answer. */
async function deliver(event: unknown) {
	const { payload, signature } = signed(event)
	const request = new Request('http://localhost:3000/api/stripe/webhook', {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': signature },
		body: payload,
	})
	const { result } = await call(webhook.action, request)
	if (result instanceof Error) return { status: 500, body: result.message, headers: new Headers() }
	return unwrap(result)
}

/** A guest's paid Checkout Session of `net` cents, as Stripe holds it. */
function paidSession(net: number, metadata: Record<string, string> = giftMetadata(net)) {
	return {
		id: uniqueId('cs_test'),
		object: 'checkout.session',
		mode: 'payment',
		status: 'complete',
		payment_status: 'paid',
		amount_total: net,
		currency: 'usd',
		payment_intent: uniqueId('pi'),
		customer_details: { email: `${uniqueId('donor')}@example.com`, name: 'Ada Lovelace' },
		metadata,
	}
}

function paidInvoice(subscription: string, metadata: Record<string, string>, email: string, amountPaid = 999) {
	return {
		id: uniqueId('in'),
		object: 'invoice',
		status: 'paid',
		amount_paid: amountPaid,
		currency: 'usd',
		customer_email: email,
		customer_name: 'Monthly Donor',
		status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
		parent: { type: 'subscription_details', subscription_details: { subscription, metadata } },
	}
}

const donationsFor = (id: string) =>
	db
		.select()
		.from(s.donations)
		.where(or(eq(s.donations.paymentIntentId, id), eq(s.donations.invoiceId, id), eq(s.donations.checkoutSessionId, id)))
const receiptsTo = (email: string) =>
	db
		.select()
		.from(s.emails)
		.where(and(messagesTo(email), eq(s.emails.emailType, 'donation-receipt')))
const eventSeen = async (id: string) => (await db.select().from(s.paymentEvents).where(eq(s.paymentEvents.id, id))).length > 0

describe('an event naming an account that no longer exists', () => {
	test('records the gift without a donor (200), with its receipt, instead of failing on the foreign key for ever', async () => {
		const user = await createUser()
		await deleteAccount(user.id)
		const session = stripe.know(paidSession(2500, giftMetadata(2500, 'advocate', user.id)))
		expect(await deliver(stripeEvent('checkout.session.completed', session))).toMatchObject({
			status: 200,
			body: { outcome: 'recorded' },
		})
		expect(await donationsFor(session.payment_intent)).toEqual([
			expect.objectContaining({ userId: null, amountCents: 2500, status: 'succeeded', donorEmail: session.customer_details.email }),
		])
		expect(await receiptsTo(session.customer_details.email)).toHaveLength(1)

		// An account that never existed, on a monthly gift's invoice and on a failed payment.
		const invoice = stripe.know(
			paidInvoice(uniqueId('sub'), giftMetadata(999, 'premium', randomUUID(), 'subscription'), `${uniqueId('m')}@example.com`),
		)
		expect(await deliver(stripeEvent('invoice.paid', invoice))).toMatchObject({ status: 200, body: { outcome: 'recorded' } })
		expect(await donationsFor(invoice.id)).toEqual([expect.objectContaining({ userId: null, amountCents: 999 })])
		const failed = stripe.know({
			id: uniqueId('pi'),
			object: 'payment_intent',
			status: 'requires_payment_method',
			amount: 1500,
			amount_received: 0,
			currency: 'usd',
			metadata: giftMetadata(1500, 'advocate', randomUUID()),
		})
		expect(await deliver(stripeEvent('payment_intent.payment_failed', failed))).toMatchObject({ status: 200 })
		expect(await donationsFor(failed.id)).toEqual([expect.objectContaining({ userId: null, status: 'failed' })])
	})

	test('a monthly gift begun by a deleted account keeps no plan, and its paid invoices are still gifts', async () => {
		const user = await createUser()
		const subscription = uniqueId('sub')
		const metadata = giftMetadata(999, 'premium', user.id, 'subscription')
		await deleteAccount(user.id)
		const session = stripe.know({
			id: uniqueId('cs_test'),
			object: 'checkout.session',
			mode: 'subscription',
			payment_status: 'paid',
			subscription,
			customer: uniqueId('cus'),
			metadata,
		})
		expect(await deliver(stripeEvent('checkout.session.completed', session))).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
		expect(await db.select().from(s.subscriptions).where(eq(s.subscriptions.providerSubscriptionId, subscription))).toEqual([])
		const invoice = stripe.know(paidInvoice(subscription, metadata, user.email))
		expect(await deliver(stripeEvent('invoice.paid', invoice))).toMatchObject({ status: 200, body: { outcome: 'recorded' } })
		expect(await donationsFor(invoice.id)).toEqual([expect.objectContaining({ userId: null, tier: 'premium' })])
	})

	test('an account deleted while its gift is being recorded: the gift is recorded again without its donor', async () => {
		const user = await createUser()
		const session = stripe.know(paidSession(1500, giftMetadata(1500, 'advocate', user.id)))
		// The account goes in the same instant the donation row arrives, after the webhook found it there.
		const name = `delete_donor_${user.id.replaceAll('-', '')}`
		await db.execute(
			sql.raw(`create function ${name}() returns trigger language plpgsql as $$
				begin delete from users where id = new.user_id; return new; end $$`),
		)
		await db.execute(
			sql.raw(`create trigger ${name} before insert on donations for each row
				when (new.user_id = '${user.id}') execute function ${name}()`),
		)
		try {
			expect(await deliver(stripeEvent('checkout.session.completed', session))).toMatchObject({
				status: 200,
				body: { outcome: 'recorded' },
			})
		} finally {
			await db.execute(sql.raw(`drop trigger ${name} on donations`))
			await db.execute(sql.raw(`drop function ${name}()`))
		}
		expect(await donationsFor(session.payment_intent)).toEqual([expect.objectContaining({ userId: null, amountCents: 1500 })])
	})
})

describe('a malformed object', () => {
	test('a null object is a 400, answered once: its retries are duplicates', async () => {
		for (const type of ['checkout.session.completed', 'payment_intent.succeeded', 'charge.refunded', 'invoice.paid']) {
			const event = stripeEvent(type, null as never)
			const answer = await deliver(event)
			expect(answer, type).toMatchObject({ status: 400, body: { message: expect.stringMatching(/malformed/) } })
			expect(await deliver(event), type).toMatchObject({ status: 200, body: { outcome: 'duplicate' } })
		}
		// An event that is not an event at all has nothing to be remembered by: a 400 each time, never a 500.
		for (const body of [null, [], 'evt', { id: uniqueId('evt') }, { ...stripeEvent('charge.refunded', {}), created: 1e20 }])
			expect((await deliver(body)).status).toBe(400)
	})

	test('a negative or out-of-range amount is a 400 and records nothing, whatever Stripe holds', async () => {
		const attacks: Array<[string, (session: ReturnType<typeof paidSession>) => Record<string, unknown>]> = [
			['a negative total', (session) => ({ ...session, amount_total: -1500 })],
			['a total past the largest charge', (session) => ({ ...session, amount_total: 100_000_000 })],
			['a total past 32 bits', (session) => ({ ...session, amount_total: 2 ** 40 })],
			['a fractional total', (session) => ({ ...session, amount_total: 15.5 })],
			['a total as text', (session) => ({ ...session, amount_total: '1500' })],
			['a negative gift in the metadata', (session) => ({ ...session, metadata: giftMetadata(-1500) })],
			['a gift past the largest charge', (session) => ({ ...session, metadata: giftMetadata(100_000_000) })],
		]
		for (const [what, attack] of attacks) {
			// Stripe's copy is the attacked one too: nothing of it may be stored.
			const session = paidSession(1500)
			stripe.know(attack(session))
			const event = stripeEvent('checkout.session.completed', attack(session))
			expect(await deliver(event), what).toMatchObject({ status: 400 })
			expect(await deliver(event), what).toMatchObject({ status: 200, body: { outcome: 'duplicate' } })
			expect(await donationsFor(session.payment_intent), what).toEqual([])
			expect(await receiptsTo(session.customer_details.email), what).toEqual([])
		}
		const invoice = paidInvoice(uniqueId('sub'), giftMetadata(999, 'basic', undefined, 'subscription'), 'neg@example.com', -999)
		expect(await deliver(stripeEvent('invoice.paid', invoice))).toMatchObject({ status: 400 })
		const refund = {
			id: uniqueId('ch'),
			object: 'charge',
			payment_intent: uniqueId('pi'),
			amount: 500,
			amount_refunded: 900,
			refunded: true,
		}
		expect(await deliver(stripeEvent('charge.refunded', refund))).toMatchObject({ status: 400 })
		expect(await donationsFor(invoice.id)).toEqual([])
	})

	test('a subscription change that says nothing the app keeps is acknowledged, not a 500 (an update with nothing to set)', async () => {
		const change = { id: uniqueId('sub'), object: 'subscription', status: 'a_status_of_the_future', items: { data: [] } }
		expect(await deliver(stripeEvent('customer.subscription.updated', change))).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
	})

	test('data the database refuses (here a Checkout Session already given to another gift) is a 400 once, not a 500 for ever', async () => {
		const first = stripe.know(paidSession(1500))
		await deliver(stripeEvent('checkout.session.completed', first))
		const other = stripe.know({
			id: uniqueId('pi'),
			object: 'payment_intent',
			status: 'succeeded',
			amount: 2000,
			amount_received: 2000,
			currency: 'usd',
			receipt_email: 'other@example.com',
			metadata: giftMetadata(2000),
		})
		expect(await deliver(stripeEvent('payment_intent.succeeded', other))).toMatchObject({ body: { outcome: 'recorded' } })
		const clash = stripeEvent('checkout.session.completed', { ...first, payment_intent: other.id })
		expect(await deliver(clash)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/23505/) } })
		expect(await deliver(clash)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } })
		expect((await donationsFor(other.id))[0]).toMatchObject({ checkoutSessionId: null, amountCents: 2000 })
	})
})

describe('an object the app never created', () => {
	test('invoice.paid for an unknown subscription, which Stripe says does not exist, records nothing and sends no receipt', async () => {
		const email = `${uniqueId('nobody')}@example.com`
		const invoice = paidInvoice(uniqueId('sub'), giftMetadata(999, 'premium', undefined, 'subscription'), email)
		const event = stripeEvent('invoice.paid', invoice)
		expect(await deliver(event)).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
		expect(stripe.calls).toEqual([expect.objectContaining({ method: 'GET', path: `/v1/invoices/${invoice.id}` })])
		expect(await donationsFor(invoice.id)).toEqual([])
		expect(await receiptsTo(email)).toEqual([])
		expect(await deliver(event)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } })
	})

	test("invoice.paid for an unknown subscription that Stripe confirms is recorded from Stripe's copy, not the event's", async () => {
		const email = `${uniqueId('monthly')}@example.com`
		const metadata = giftMetadata(999, 'premium', undefined, 'subscription')
		const invoice = stripe.know(paidInvoice(uniqueId('sub'), metadata, email))
		const claimed = { ...invoice, amount_paid: 99_999_999, customer_email: 'attacker@example.com' }
		expect(await deliver(stripeEvent('invoice.paid', claimed))).toMatchObject({ status: 200, body: { outcome: 'recorded' } })
		expect(await donationsFor(invoice.id)).toEqual([
			expect.objectContaining({ amountCents: 999, feeCents: 0, donorEmail: email, status: 'succeeded', tier: 'premium' }),
		])
		expect(await receiptsTo(email)).toHaveLength(1)
		expect(await receiptsTo('attacker@example.com')).toEqual([])

		// An invoice Stripe holds but that is not paid is no gift either.
		const open = stripe.know({ ...paidInvoice(uniqueId('sub'), metadata, email), status: 'open' })
		expect(await deliver(stripeEvent('invoice.paid', { ...open, status: 'paid' }))).toMatchObject({ body: { outcome: 'ignored' } })
		expect(await donationsFor(open.id)).toEqual([])
	})

	test('a Checkout Session, PaymentIntent or refunded charge Stripe has no record of records nothing', async () => {
		const session = paidSession(1500)
		expect(await deliver(stripeEvent('checkout.session.completed', session))).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
		const intent = {
			id: uniqueId('pi'),
			object: 'payment_intent',
			status: 'succeeded',
			amount: 1500,
			amount_received: 1500,
			receipt_email: 'ghost@example.com',
			metadata: giftMetadata(1500),
		}
		expect(await deliver(stripeEvent('payment_intent.succeeded', intent))).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
		const charge = { id: uniqueId('ch'), object: 'charge', payment_intent: intent.id, amount: 1500, amount_refunded: 1500, refunded: true }
		expect(await deliver(stripeEvent('charge.refunded', charge))).toMatchObject({ status: 200, body: { outcome: 'ignored' } })
		expect(await donationsFor(session.payment_intent)).toEqual([])
		expect(await donationsFor(intent.id)).toEqual([])
		expect(await receiptsTo(session.customer_details.email)).toEqual([])
		expect(await receiptsTo('ghost@example.com')).toEqual([])

		// Stripe holds the session, but unpaid: the event's word that it was paid records nothing.
		const unpaid = stripe.know({ ...paidSession(1500), payment_status: 'unpaid' })
		expect(await deliver(stripeEvent('checkout.session.completed', { ...unpaid, payment_status: 'paid' }))).toMatchObject({
			body: { outcome: 'ignored' },
		})
		expect(await donationsFor(unpaid.payment_intent)).toEqual([])
	})

	test('when Stripe cannot be reached the answer is 503, so that Stripe sends the event again; then it is recorded', async () => {
		const session = stripe.know(paidSession(1500))
		const event = stripeEvent('checkout.session.completed', session)
		stripe.unreachable()
		expect(await deliver(event)).toMatchObject({ status: 503 })
		expect(await eventSeen(event.id)).toBe(false)
		expect(await donationsFor(session.payment_intent)).toEqual([])
		expect(await deliver(event)).toMatchObject({ status: 200, body: { outcome: 'recorded' } })
	})
})
