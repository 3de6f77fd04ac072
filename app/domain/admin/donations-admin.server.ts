import { and, desc, sql } from 'drizzle-orm'
import { db, instant } from '#db/client.ts'
import { donations } from '#db/schema.ts'
import { CONFIRMED_GIFT, GIFT_RECEIVED, GIFT_TIME, moneyReceived, type Money } from '#app/domain/analytics/figures.server.ts'
import { timeRangeStart, type TimeRange } from './time-range.ts'

const MAX_LIMIT = 500

export type AdminDonation = {
	id: number
	donorEmail: string | null
	donorName: string | null
	/** The gift in dollars (fees the donor covered are not part of it). */
	amount: number
	/** Money received for it in dollars: what Stripe charged (the gift and any fee covered) less what was refunded. */
	received: number
	tier: string
	status: 'pending' | 'succeeded' | 'failed' | 'refunded'
	createdAt: string
	paidAt: string | null
	/** A monthly gift's charge (it paid an invoice). */
	monthly: boolean
}

export type DonationTotals = Money & {
	/** How many confirmed gifts (succeeded, or refunded since). */
	count: number
	/** Distinct donors among them: by account, else by e-mail; a gift with neither counts as its own donor. */
	donors: number
}

/**
 * The Donations tab (spec 002 §2: donor, amount, tier, date; §3 donationData): every donation of the range (by when it
 * was confirmed, else tried), newest first, at most `limit` (1 to 500), and the totals of the whole range (not only the
 * rows listed): the money received, as the header counts it, and the confirmed gifts and their donors.
 */
export async function listDonations(
	{ range, limit = 100 }: { range: TimeRange; limit?: number },
	now: Date = new Date(),
): Promise<{ donations: AdminDonation[]; totals: DonationTotals }> {
	const window = { start: timeRangeStart(range, now), end: now }
	const inRange = sql`(${GIFT_TIME} >= ${instant(window.start)} and ${GIFT_TIME} < ${instant(window.end)})`
	const [rows, [gifts], money] = await Promise.all([
		db
			.select({
				id: donations.id,
				donorEmail: donations.donorEmail,
				donorName: donations.donorName,
				amountCents: donations.amountCents,
				receivedCents: sql<number>`${GIFT_RECEIVED}`.mapWith(Number),
				tier: donations.tier,
				status: donations.status,
				invoiceId: donations.invoiceId,
				paidAt: donations.paidAt,
				createdAt: donations.createdAt,
			})
			.from(donations)
			.where(inRange)
			.orderBy(desc(GIFT_TIME), desc(donations.id))
			.limit(Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_LIMIT) : 100),
		db
			.select({
				count: sql<number>`count(*)::int`,
				donors: sql<number>`count(distinct coalesce(${donations.userId}, lower(${donations.donorEmail}), 'donation:' || ${donations.id}))::int`,
			})
			.from(donations)
			.where(and(inRange, CONFIRMED_GIFT)),
		moneyReceived(window),
	])
	return {
		donations: rows.map((row) => ({
			id: row.id,
			donorEmail: row.donorEmail,
			donorName: row.donorName,
			amount: row.amountCents / 100,
			received: row.receivedCents / 100,
			tier: row.tier,
			status: row.status,
			createdAt: row.createdAt.toISOString(),
			paidAt: row.paidAt?.toISOString() ?? null,
			monthly: row.invoiceId !== null,
		})),
		totals: { ...money.donations, count: gifts?.count ?? 0, donors: gifts?.donors ?? 0 },
	}
}
