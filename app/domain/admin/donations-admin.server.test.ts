import { expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { donations } from '#db/schema.ts'
import { createUser, uniqueEmail } from '#tests/factories.ts'
import { listDonations } from './donations-admin.server.ts'

const HOUR = 3_600_000
let counter = 0

/** A gift as the webhook records it: a confirmed one was charged the gift and the fee, others nothing. */
async function gift(values: Partial<typeof donations.$inferInsert>) {
	const { amountCents = 1500, feeCents = 0, status = 'succeeded' } = values
	const chargedCents = status === 'succeeded' || status === 'refunded' ? amountCents + feeCents : 0
	const [row] = await db
		.insert(donations)
		.values({
			tier: 'advocate',
			paymentIntentId: `pi_admin_${Date.now()}_${++counter}`,
			...values,
			amountCents,
			feeCents,
			status,
			chargedCents,
		})
		.returning()
	return row!
}

test('the rows of the range, newest first, with the money received and the confirmed gifts (deltas: other tests add gifts)', async () => {
	const now = Date.now()
	const before = await listDonations({ range: '24hours', limit: 500 })
	const donor = await createUser({ firstName: 'Grace', lastName: 'Hopper' })
	const guest = uniqueEmail('guest')

	const paidAt = new Date(now - HOUR)
	const fromAccount = await gift({
		userId: donor.id,
		donorEmail: donor.email,
		donorName: 'Grace Hopper',
		feeCents: 75,
		createdAt: new Date(now - HOUR),
		paidAt,
	})
	const again = await gift({ userId: donor.id, amountCents: 500, tier: 'supporter', createdAt: new Date(now - 2 * HOUR), paidAt })
	const monthly = await gift({
		donorEmail: guest,
		amountCents: 999,
		tier: 'premium',
		invoiceId: `in_${now}_${counter}`,
		paymentIntentId: null,
		createdAt: new Date(now - 3 * HOUR),
		paidAt,
	})
	const sameGuest = await gift({ donorEmail: guest.toUpperCase(), amountCents: 100, tier: 'custom', createdAt: new Date(now - 4 * HOUR) })
	const pending = await gift({
		donorEmail: uniqueEmail('maybe'),
		amountCents: 99_900,
		status: 'pending',
		createdAt: new Date(now - 5 * HOUR),
	})
	const failed = await gift({ amountCents: 1234, status: 'failed', createdAt: new Date(now - 6 * HOUR) })
	const refunded = await gift({ amountCents: 5000, status: 'refunded', refundedCents: 5000, createdAt: new Date(now - 7 * HOUR) })
	const partly = await gift({ amountCents: 2000, feeCents: 90, refundedCents: 1000, createdAt: new Date(now - 7.5 * HOUR) })
	const anonymous = await gift({ amountCents: 300, createdAt: new Date(now - 8 * HOUR) })
	const threeDays = await gift({ amountCents: 700, createdAt: new Date(now - 72 * HOUR) })
	const tenDays = await gift({ amountCents: 800, createdAt: new Date(now - 240 * HOUR) })

	const day = await listDonations({ range: '24hours', limit: 500 })
	// By when Stripe confirmed them (then by id), else when they were tried.
	const mine = [monthly, again, fromAccount, sameGuest, pending, failed, refunded, partly, anonymous]
	const ids = new Set([...mine, threeDays, tenDays].map((g) => g.id))
	expect(day.donations.filter((d) => ids.has(d.id)).map((d) => d.id)).toEqual(mine.map((g) => g.id))
	expect(day.donations.find((d) => d.id === fromAccount.id)).toEqual({
		id: fromAccount.id,
		donorEmail: donor.email,
		donorName: 'Grace Hopper',
		amount: 15,
		received: 15.75,
		tier: 'advocate',
		status: 'succeeded',
		createdAt: new Date(now - HOUR).toISOString(),
		paidAt: paidAt.toISOString(),
		monthly: false,
	})
	expect(day.donations.find((d) => d.id === monthly.id)).toMatchObject({ amount: 9.99, monthly: true, tier: 'premium' })
	expect(day.donations.find((d) => d.id === pending.id)).toMatchObject({ status: 'pending', paidAt: null, amount: 999, received: 0 })
	expect(day.donations.find((d) => d.id === refunded.id)).toMatchObject({ amount: 50, received: 0 })
	expect(day.donations.find((d) => d.id === partly.id)).toMatchObject({ amount: 20, received: 10.9 })
	// Newest first throughout.
	const times = day.donations.map((d) => d.paidAt ?? d.createdAt)
	expect([...times].sort().reverse()).toEqual(times)

	// Charged: confirmed gifts with the fees covered, 1575 + 500 + 999 + 100 + 5000 + 2090 + 300; refunded 5000 + 1000.
	// Gifts: the confirmed ones, refunded too; donors: the account, the guest (any case), three gifts without either.
	expect({
		chargedCents: day.totals.chargedCents - before.totals.chargedCents,
		refundedCents: day.totals.refundedCents - before.totals.refundedCents,
		receivedCents: day.totals.receivedCents - before.totals.receivedCents,
		count: day.totals.count - before.totals.count,
		donors: day.totals.donors - before.totals.donors,
	}).toEqual({ chargedCents: 10_564, refundedCents: 6000, receivedCents: 4564, count: 7, donors: 5 })
	// The total received is the Received column of the rows added up.
	const listed = day.donations.filter((d) => ids.has(d.id)).reduce((sum, d) => sum + Math.round(d.received * 100), 0)
	expect(listed).toBe(4564)

	const week = await listDonations({ range: '7days', limit: 500 })
	expect(week.donations.map((d) => d.id)).toContain(threeDays.id)
	expect(week.donations.map((d) => d.id)).not.toContain(tenDays.id)
	const month = await listDonations({ range: '30days', limit: 500 })
	expect(month.donations.map((d) => d.id)).toContain(tenDays.id)
})

test('the limit bounds the rows, never the totals', async () => {
	const now = Date.now()
	await gift({ amountCents: 100, createdAt: new Date(now - 1000) })
	await gift({ amountCents: 100, createdAt: new Date(now - 2000) })
	const full = await listDonations({ range: '90days', limit: 500 })
	const one = await listDonations({ range: '90days', limit: 1 })
	expect(one.donations).toHaveLength(1)
	expect(one.donations[0]!.id).toBe(full.donations[0]!.id)
	expect(one.totals).toEqual(full.totals)
	expect((await listDonations({ range: '90days' })).donations.length).toBeLessThanOrEqual(100)
})

test('a range is measured back from `now`', async () => {
	const now = Date.now()
	const old = await gift({ amountCents: 4200, createdAt: new Date(now - 30 * HOUR) })
	expect((await listDonations({ range: '24hours', limit: 500 })).donations.map((d) => d.id)).not.toContain(old.id)
	const later = new Date(now - 10 * HOUR)
	expect((await listDonations({ range: '24hours', limit: 500 }, later)).donations.map((d) => d.id)).toContain(old.id)
})
