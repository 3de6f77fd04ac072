import { sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { qrCodes, qrRequests } from '#db/schema.ts'

export type QrStats = { total: number; unclaimed: number; claimed: number; pendingRequests: number }

/**
 * GET /api/admin/qr-stats (spec 002 §3 "QR stats"), in one query. Claimed: codes with an owner; unclaimed: printed
 * codes nobody has claimed yet (a code without an owner is always a printed one: self-made codes are deleted with
 * their account). Inactive codes count too: they still exist and still have or lack an owner.
 */
export async function qrStats(): Promise<QrStats> {
	const pending = sql<number>`(select count(*)::int from ${qrRequests} where ${qrRequests.requestStatus} = 'pending')`
	const [row] = await db
		.select({
			total: sql<number>`count(*)::int`,
			claimed: sql<number>`(count(*) filter (where ${qrCodes.userId} is not null))::int`,
			unclaimed: sql<number>`(count(*) filter (where ${qrCodes.userId} is null))::int`,
			pendingRequests: pending,
		})
		.from(qrCodes)
	return {
		total: row?.total ?? 0,
		unclaimed: row?.unclaimed ?? 0,
		claimed: row?.claimed ?? 0,
		pendingRequests: row?.pendingRequests ?? 0,
	}
}
