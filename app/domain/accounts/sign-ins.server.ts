import { and, desc, eq, ne, notInArray } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { newestIds } from '#db/queries.ts'
import { sessions, signIns } from '#db/schema.ts'

/** Sign-ins kept per account: enough to name the one before this, and no history of someone's addresses beyond it. */
export const SIGN_INS_KEPT = 5

/** Where a sign-in came from: the client's address, and a coarse place only when a trusted proxy said so. */
export type SignInOrigin = { ipAddress: string | null; city?: string | null; region?: string | null; country?: string | null }

const short = (value: string | null | undefined) => (value ? value.slice(0, 80) : null)

/** Records a sign-in and forgets the account's older ones past SIGN_INS_KEPT; returns its id (the session keeps it). */
export async function recordSignIn(userId: string, origin: SignInOrigin) {
	const [row] = await db
		.insert(signIns)
		.values({
			userId,
			ipAddress: short(origin.ipAddress),
			city: short(origin.city),
			region: short(origin.region),
			country: short(origin.country),
		})
		.returning({ id: signIns.id })
	const kept = newestIds(signIns, userId, SIGN_INS_KEPT)
	await db.delete(signIns).where(and(eq(signIns.userId, userId), notInArray(signIns.id, kept)))
	return row!.id
}

export type SignInView = { at: Date; from: string }

/** 'Portland, ME, US (203.0.113.7)', or the address alone when no trusted proxy named a place. */
export function signInPlace(row: { ipAddress: string | null; city: string | null; region: string | null; country: string | null }) {
	const place = [row.city, row.region, row.country].filter(Boolean).join(', ')
	if (place && row.ipAddress) return `${place} (${row.ipAddress})`
	return place || row.ipAddress || 'an unknown address'
}

/**
 * The most recent sign-in other than the one that started this session (`currentSignInId`, when the session knows
 * it): what a person checks to notice a sign-in that was not theirs.
 */
export async function previousSignIn(userId: string, currentSignInId?: number | null): Promise<SignInView | null> {
	const [row] = await db
		.select()
		.from(signIns)
		.where(and(eq(signIns.userId, userId), currentSignInId ? ne(signIns.id, currentSignInId) : undefined))
		.orderBy(desc(signIns.createdAt), desc(signIns.id))
		.limit(1)
	return row ? { at: row.createdAt, from: signInPlace(row) } : null
}

/** Ends every session of the account (all but `exceptSessionId` when given); returns how many ended. */
export async function endSessions(userId: string, exceptSessionId?: string | null) {
	const ended = await db
		.delete(sessions)
		.where(and(eq(sessions.userId, userId), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined))
		.returning({ id: sessions.id })
	return ended.length
}
