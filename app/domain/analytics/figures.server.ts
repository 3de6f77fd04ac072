import { sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { db, instant, rowsOf } from '#db/client.ts'
import { donations, orders, users, visits } from '#db/schema.ts'
import { REAL_VISIT } from './rollup.server.ts'
import type { Window } from './windows.server.ts'

// The admin area's money and rates, each defined here once: the header, the tabs, the CSV and the JSON read them.

const ZONE = sql.raw(`'America/New_York'`)
const int = (expression: SQL) => sql<number>`coalesce(${expression}, 0)::bigint`.mapWith(Number)
const inWindow = (column: AnyPgColumn | SQL, { start, end }: Window) =>
	sql`(${column} >= ${instant(start)} and ${column} < ${instant(end)})`

/** What one order or gift brought in: what was charged less what was refunded. List prices and covered fees are not money. */
export const receivedCents = (row: { chargedCents: number; refundedCents: number }) => row.chargedCents - row.refundedCents

/** The same, in SQL, for an order's and a gift's row. */
export const ORDER_RECEIVED = sql`(${orders.chargedCents} - ${orders.refundedCents})`
export const GIFT_RECEIVED = sql`(${donations.chargedCents} - ${donations.refundedCents})`

/** A gift belongs to the moment Stripe confirmed it; one never confirmed, to when it was tried. */
export const GIFT_TIME = sql`coalesce(${donations.paidAt}, ${donations.createdAt})`

/** A gift counts as one once Stripe confirmed it, refunded since or not. */
export const CONFIRMED_GIFT = sql`${donations.status} in ('succeeded', 'refunded')`

/** An order counts as one unless its payment failed: a free order is an order. */
export const COUNTED_ORDER = sql`${orders.paymentStatus} <> 'failed'`

export type Money = { chargedCents: number; refundedCents: number; receivedCents: number }

const money = (row: { charged: number; refunded: number } | undefined): Money => {
	const charged = row?.charged ?? 0
	const refunded = row?.refunded ?? 0
	return {
		chargedCents: charged,
		refundedCents: refunded,
		receivedCents: receivedCents({ chargedCents: charged, refundedCents: refunded }),
	}
}

/**
 * Every revenue figure: money received less refunds, of the shop's orders placed and the gifts confirmed in the window.
 * A refund counts against the order or gift it returns, whenever it was made.
 */
export async function moneyReceived(window: Window): Promise<{ shop: Money; donations: Money; total: Money }> {
	const [[shop], [gifts]] = await Promise.all([
		db
			.select({ charged: int(sql`sum(${orders.chargedCents})`), refunded: int(sql`sum(${orders.refundedCents})`) })
			.from(orders)
			.where(inWindow(orders.createdAt, window)),
		db
			.select({ charged: int(sql`sum(${donations.chargedCents})`), refunded: int(sql`sum(${donations.refundedCents})`) })
			.from(donations)
			.where(inWindow(GIFT_TIME, window)),
	])
	const a = money(shop)
	const b = money(gifts)
	return {
		shop: a,
		donations: b,
		total: money({ charged: a.chargedCents + b.chargedCents, refunded: a.refundedCents + b.refundedCents }),
	}
}

const etDate = (column: AnyPgColumn) => sql`(${column} at time zone ${ZONE})::date`

/**
 * The real users (as counted for "real users": one per visitor and ET day) who signed up, and who ordered, in the window:
 * those with a real visit in the window, signed in to an account made, or that placed an order, that same ET day. Each is
 * one of the window's real users, so neither rate can pass 100%. Read through the accounts' and orders' own indexes,
 * then each account's page views by the user index: never a scan of the window's visits.
 */
export async function realUsersWho(window: Window): Promise<{ signedUp: number; ordered: number }> {
	const realVisit = sql`${REAL_VISIT} and ${inWindow(visits.visitedAt, window)}`
	const visitor = sql`(${etDate(visits.visitedAt)}, ${visits.visitorHash})`
	const [signedUp, ordered] = await Promise.all([
		db.execute(sql`
			select count(distinct ${visitor})::int as n
			from ${users} join ${visits} on ${visits.userId} = ${users.id}
			where ${inWindow(users.createdAt, window)} and ${realVisit} and ${etDate(visits.visitedAt)} = ${etDate(users.createdAt)}`),
		db.execute(sql`
			select count(distinct ${visitor})::int as n
			from (select distinct ${orders.userId} as user_id, ${etDate(orders.createdAt)} as day from ${orders}
				where ${inWindow(orders.createdAt, window)} and ${COUNTED_ORDER} and ${orders.userId} is not null) as o
			join ${visits} on ${visits.userId} = o.user_id
			where ${realVisit} and ${etDate(visits.visitedAt)} = o.day`),
	])
	const count = (result: unknown) => Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0)
	return { signedUp: count(signedUp), ordered: count(ordered) }
}

/** A share in percent with one decimal; 0 of nothing is 0. */
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0)
