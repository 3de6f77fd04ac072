import { randomBytes, randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { donations, orders, visits } from '#db/schema.ts'
import { createUser, uniqueEmail } from '#tests/factories.ts'
import { moneyReceived, percent, realUsersWho, receivedCents } from './figures.server.ts'

// Each test works in a day of its own, long ago, so rows other tests add never fall in its window.
const noonOf = (day: string) => new Date(`${day}T16:00:00Z`) // noon in New York (EDT)
const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000)
const dayWindow = (day: string) => ({
	start: new Date(`${day}T04:00:00Z`),
	end: new Date(new Date(`${day}T04:00:00Z`).getTime() + 86_400_000),
})

async function order(values: Partial<typeof orders.$inferInsert> & { createdAt: Date }) {
	await db.insert(orders).values({
		id: randomUUID(),
		confirmationNumber: `HMH-${randomBytes(4).toString('hex').toUpperCase()}`,
		customerEmail: uniqueEmail('figures'),
		subtotalCents: 1000,
		shippingCents: 600,
		totalCents: 1600,
		...values,
	})
}

async function gift(values: Partial<typeof donations.$inferInsert> & { createdAt: Date }) {
	const { amountCents = 1500, feeCents = 0, status = 'succeeded' } = values
	const confirmed = status === 'succeeded' || status === 'refunded'
	await db.insert(donations).values({
		tier: 'custom',
		paymentIntentId: `pi_fig_${randomBytes(8).toString('hex')}`,
		paidAt: confirmed ? minutes(values.createdAt, 1) : null,
		...values,
		amountCents,
		feeCents,
		status,
		chargedCents: confirmed ? amountCents + feeCents : 0,
	})
}

describe('receivedCents and percent', () => {
	test('money received is what was charged less what was refunded', () => {
		expect(receivedCents({ chargedCents: 1574, refundedCents: 181 })).toBe(1393)
		expect(receivedCents({ chargedCents: 0, refundedCents: 0 })).toBe(0)
	})

	test('a share in percent with one decimal; of nothing it is 0', () => {
		expect(percent(1, 3)).toBe(33.3)
		expect(percent(4, 4)).toBe(100)
		expect(percent(0, 0)).toBe(0)
		expect(percent(5, 0)).toBe(0)
	})
})

describe('moneyReceived', () => {
	test('free orders add nothing; paid ones and gifts add what was charged less refunds, fees covered included', async () => {
		const day = '2001-03-14'
		const at = noonOf(day)
		await order({ createdAt: at }) // free: list total $16, nothing charged
		await order({ createdAt: at, isFree: false, paymentStatus: 'completed', chargedCents: 2500, refundedCents: 500 })
		await order({ createdAt: at, isFree: false, paymentStatus: 'refunded', chargedCents: 1800, refundedCents: 1800 })
		await order({ createdAt: at, isFree: false, paymentStatus: 'failed' })
		await order({ createdAt: new Date('2001-03-13T16:00:00Z'), isFree: false, paymentStatus: 'completed', chargedCents: 9900 })

		await gift({ createdAt: at, amountCents: 1499, feeCents: 75, refundedCents: 181 })
		await gift({ createdAt: at, amountCents: 500, feeCents: 45, status: 'refunded', refundedCents: 545 })
		await gift({ createdAt: at, amountCents: 5000, status: 'pending' })
		await gift({ createdAt: at, amountCents: 2500, feeCents: 100, status: 'failed' })
		// Tried the day before, confirmed this day: it is this day's.
		await gift({ createdAt: new Date('2001-03-13T16:00:00Z'), paidAt: at, amountCents: 1000 })

		expect(await moneyReceived(dayWindow(day))).toEqual({
			shop: { chargedCents: 4300, refundedCents: 2300, receivedCents: 2000 },
			donations: { chargedCents: 1574 + 545 + 1000, refundedCents: 181 + 545, receivedCents: 1393 + 1000 },
			total: { chargedCents: 4300 + 3119, refundedCents: 2300 + 726, receivedCents: 2000 + 2393 },
		})
	})
})

describe('realUsersWho', () => {
	test('real users who signed up or ordered that day: never bots or the owner, never more than the real users', async () => {
		const day = '2001-05-09'
		const at = noonOf(day)
		const [newcomer, second, bot, owner, silent, buyer] = await Promise.all([
			createUser({ createdAt: at }),
			createUser({ createdAt: minutes(at, 5) }),
			createUser({ createdAt: at }),
			createUser({ createdAt: at }),
			createUser({ createdAt: at }),
			createUser({ createdAt: new Date('2000-01-01T00:00:00Z') }),
		])
		await order({ createdAt: minutes(at, 30), userId: buyer.id })
		await order({ createdAt: minutes(at, 40), userId: buyer.id })
		await order({ createdAt: minutes(at, 20), userId: bot.id })
		await order({ createdAt: minutes(at, 20), userId: owner.id })
		const visit = (v: Partial<typeof visits.$inferInsert> & { visitedAt: Date; visitorHash: bigint }) => ({
			path: '/',
			isFirstVisit: false,
			browser: 'Firefox',
			deviceType: 'desktop',
			...v,
		})
		await db.insert(visits).values([
			// One browser, two accounts made in it: one real user who signed up.
			visit({ visitedAt: minutes(at, 1), visitorHash: 9_001n, userId: newcomer.id }),
			visit({ visitedAt: minutes(at, 6), visitorHash: 9_001n, userId: second.id }),
			visit({ visitedAt: minutes(at, 31), visitorHash: 9_002n, userId: buyer.id }),
			visit({ visitedAt: minutes(at, 2), visitorHash: 9_003n }),
			visit({ visitedAt: minutes(at, 1), visitorHash: 9_004n, userId: bot.id, isBot: true }),
			visit({ visitedAt: minutes(at, 1), visitorHash: 9_005n, userId: owner.id, isOwner: true }),
			// The buyer seen the next day: not an order of that day.
			visit({ visitedAt: minutes(at, 24 * 60), visitorHash: 9_006n, userId: buyer.id }),
		])
		// `silent` signed up but was never seen by the analytics as a real user: not counted.
		expect(silent.id).toBeTruthy()
		expect(await realUsersWho(dayWindow(day))).toEqual({ signedUp: 1, ordered: 1 })
	})
})
