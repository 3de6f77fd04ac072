import { messagesTo } from '#app/adapters/mail.server.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import * as statusApi from '#app/routes/api/subscription-status.ts'
import * as webhook from '#app/routes/api/stripe-webhook.ts'
import * as pricing from '#app/routes/giving/pricing.tsx'
import * as subscribe from '#app/routes/giving/subscribe.tsx'
import * as yourGiving from '#app/routes/giving/your-giving.tsx'
import { env } from '#app/utils/env.server.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { get } from '#tests/api.ts'
import { call, createUser, formRequest, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import { giftMetadata, mockStripe, signed, stripeEvent, uniqueId } from '#tests/stripe.ts'

const stripe = mockStripe()

async function deliver(event: unknown) {
	const { payload, signature } = signed(event)
	const request = new Request('http://localhost:3000/api/stripe/webhook', {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': signature },
		body: payload,
	})
	return unwrap((await call(webhook.action, request)).result)
}

/** A paid invoice of the subscription, as Stripe holds it. */
function invoice(subscription: string, metadata: Record<string, string>, email: string) {
	return stripe.know({
		id: uniqueId('in'),
		object: 'invoice',
		status: 'paid',
		amount_paid: 999,
		customer_email: email,
		customer_name: 'Monthly Donor',
		status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
		parent: { type: 'subscription_details', subscription_details: { subscription, metadata } },
	})
}

describe('monthly gifts', () => {
	test('/subscribe starts a Stripe subscription Checkout for the plan, returning to /dashboard?subscribed=true', async () => {
		const user = await createUser()
		const answer = await unwrap(
			(await call(subscribe.action, formRequest('/subscribe', { plan: 'premium' }, { cookie: await sessionCookie(user.id) }))).result,
		)
		expect(answer.status).toBe(303)
		const form = stripe.calls[0]!.form
		expect(form.get('mode')).toBe('subscription')
		expect(form.get('line_items[0][price_data][unit_amount]')).toBe('999')
		expect(form.get('line_items[0][price_data][recurring][interval]')).toBe('month')
		expect(form.get('subscription_data[metadata][user_id]')).toBe(user.id)
		expect(form.get('subscription_data[metadata][kind]')).toBe('subscription')
		expect(form.get('success_url')).toBe(`${env.PUBLIC_URL}/dashboard?subscribed=true`)
		await call(subscribe.action, formRequest('/subscribe', { plan: 'basic', coverFees: 'on' }, { cookie: await sessionCookie(user.id) }))
		expect(stripe.calls[1]!.form.get('line_items[0][price_data][unit_amount]')).toBe('545')
		expect(stripe.calls[1]!.form.get('subscription_data[metadata][net_cents]')).toBe('499')
		expect(
			(
				await unwrap(
					(await call(subscribe.action, formRequest('/subscribe', { plan: 'gold' }, { cookie: await sessionCookie(user.id) }))).result,
				)
			).status,
		).toBe(400)
	})

	test('signed out, /subscribe is the sign-in page and a plan on /pricing signs in first, then comes back', async () => {
		expect(await unwrap((await call(subscribe.loader, getRequest('/subscribe?plan=basic'))).result)).toMatchObject({
			body: { signedIn: false },
		})
		expect(await unwrap((await call(pricing.loader, getRequest('/pricing'))).result)).toMatchObject({ body: { signedIn: false } })
	})

	test('each paid invoice is a gift with its receipt (a replay is not); status, renewal and cancellation follow Stripe', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const subscription = uniqueId('sub')
		const metadata = giftMetadata(999, 'premium', user.id, 'subscription')
		const session = stripe.know({
			id: uniqueId('cs_test'),
			object: 'checkout.session',
			mode: 'subscription',
			payment_status: 'paid',
			subscription,
			customer: uniqueId('cus'),
			metadata,
		})
		expect(await deliver(stripeEvent('checkout.session.completed', session))).toMatchObject({ body: { outcome: 'recorded' } })
		expect(await get(statusApi.loader, '/api/subscription-status', cookie)).toMatchObject({ body: { status: 'active', plan: 'premium' } })

		const first = stripeEvent('invoice.paid', invoice(subscription, metadata, user.email))
		await deliver(first)
		await deliver(stripeEvent('invoice.paid', invoice(subscription, metadata, user.email)))
		await deliver(first)
		const gifts = await db.select().from(s.donations).where(eq(s.donations.userId, user.id))
		expect(gifts).toHaveLength(2)
		expect(gifts.every((g) => g.amountCents === 999 && g.tier === 'premium' && g.invoiceId)).toBe(true)
		const receipts = await db.select().from(s.emails).where(messagesTo(user.email))
		expect(receipts.filter((r) => r.emailType === 'donation-receipt')).toHaveLength(2)
		expect(receipts[0]!.textBody).toContain('This is your monthly gift. To change or cancel it:')

		const renews = Math.floor(Date.UTC(2026, 11, 24) / 1000)
		await deliver(
			stripeEvent('customer.subscription.updated', {
				id: subscription,
				object: 'subscription',
				status: 'past_due',
				items: { data: [{ current_period_end: renews }] },
			}),
		)
		expect(await get(statusApi.loader, '/api/subscription-status', cookie)).toMatchObject({
			body: { status: 'past_due', renewsAt: '2026-12-24T00:00:00.000Z' },
		})

		const manage = await unwrap((await call(yourGiving.action, formRequest('/dashboard/giving', {}, { cookie }))).result)
		expect(manage.status).toBe(303)
		expect(manage.headers.get('location')).toMatch(/^https:\/\/billing\.stripe\.com\//)
		expect(stripe.calls.at(-1)!.form.get('customer')).toBe(session.customer)
		stripe.failNextCall()
		const failed = await call(yourGiving.action, formRequest('/dashboard/giving', {}, { cookie }))
		const unreachable = await unwrap(failed.result)
		expect(unreachable.status).toBe(503)
		const sorry = 'Your monthly gift cannot be managed right now. Please try again, or write to us.'
		expect(unreachable.body).toMatchObject({ result: { error: { '': [sorry] } } })
		expect(failed.context.get(requestToastContext)).toMatchObject({ type: 'error', title: 'Error', description: sorry })

		await deliver(
			stripeEvent('customer.subscription.deleted', { id: subscription, object: 'subscription', status: 'canceled', items: { data: [] } }),
		)
		expect(await get(statusApi.loader, '/api/subscription-status', cookie)).toMatchObject({ body: { status: 'canceled' } })
	})

	test('without a monthly gift the status is none, and there is nothing to manage', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		expect(await get(statusApi.loader, '/api/subscription-status', cookie)).toMatchObject({
			status: 200,
			body: { status: 'none', plan: null },
		})
		const refused = await call(yourGiving.action, formRequest('/dashboard/giving', {}, { cookie }))
		const manage = await unwrap(refused.result)
		expect(manage).toMatchObject({ status: 400, body: { result: { error: { '': ['You have no monthly gift to change or cancel.'] } } } })
		expect(refused.context.get(requestToastContext)).toMatchObject({
			title: 'Error',
			description: 'You have no monthly gift to change or cancel.',
		})
		expect(stripe.calls).toEqual([])
		expect((await get(statusApi.loader, '/api/subscription-status')).status).toBe(401)
	})
})
