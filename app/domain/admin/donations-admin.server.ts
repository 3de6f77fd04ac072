import { and, desc, eq, gte, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { donations } from '#db/schema.ts'
import { timeRangeStart, type TimeRange } from './time-range.ts'

const MAX_LIMIT = 500

export type AdminDonation = {
	id: number
	donorEmail: string | null
	donorName: string | null
	/** The gift in dollars (fees the donor covered are not part of it). */
	amount: number
	tier: string
	status: 'pending' | 'succeeded' | 'failed' | 'refunded'
	createdAt: string
	paidAt: string | null
	/** A monthly gift's charge (it paid an invoice). */
	monthly: boolean
}

export type DonationTotals = {
	/** The gifts (not fees) of succeeded donations in the range, in cents. */
	succeededCents: number
	/** How many succeeded donations. */
	count: number
	/** Distinct donors among them: by account, else by e-mail; a gift with neither counts as its own donor. */
	donors: number
}

/**
 * The Donations tab (spec 002 §2: donor, amount, tier, date; §3 donationData): every donation created in the range,
 * newest first, at most `limit` (1 to 500), and the totals of the succeeded ones in the same range (all of them, not
 * only the rows listed).
 */
export async function listDonations(
	{ range, limit = 100 }: { range: TimeRange; limit?: number },
	now: Date = new Date(),
): Promise<{ donations: AdminDonation[]; totals: DonationTotals }> {
	const inRange = gte(donations.createdAt, timeRangeStart(range, now))
	const [rows, [totals]] = await Promise.all([
		db
			.select({
				id: donations.id,
				donorEmail: donations.donorEmail,
				donorName: donations.donorName,
				amountCents: donations.amountCents,
				tier: donations.tier,
				status: donations.status,
				invoiceId: donations.invoiceId,
				paidAt: donations.paidAt,
				createdAt: donations.createdAt,
			})
			.from(donations)
			.where(inRange)
			.orderBy(desc(donations.createdAt), desc(donations.id))
			.limit(Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_LIMIT) : 100),
		db
			.select({
				succeededCents: sql<number>`coalesce(sum(${donations.amountCents}), 0)::bigint`.mapWith(Number),
				count: sql<number>`count(*)::int`,
				donors: sql<number>`count(distinct coalesce(${donations.userId}, lower(${donations.donorEmail}), 'donation:' || ${donations.id}))::int`,
			})
			.from(donations)
			.where(and(inRange, eq(donations.status, 'succeeded'))),
	])
	return {
		donations: rows.map((row) => ({
			id: row.id,
			donorEmail: row.donorEmail,
			donorName: row.donorName,
			amount: row.amountCents / 100,
			tier: row.tier,
			status: row.status,
			createdAt: row.createdAt.toISOString(),
			paidAt: row.paidAt?.toISOString() ?? null,
			monthly: row.invoiceId !== null,
		})),
		totals: { succeededCents: totals?.succeededCents ?? 0, count: totals?.count ?? 0, donors: totals?.donors ?? 0 },
	}
}
