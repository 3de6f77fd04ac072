import { lt, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { analyticsSalts, rateLimits, sessions, visits } from '#db/schema.ts'
import { pruneExpiredEmailChanges } from '#app/domain/accounts/email-change.server.ts'

/**
 * Deletes rows nothing will read again: sessions past their expiry (a session is never read after it), and rate-limit
 * counters whose window ended over an hour ago (the next hit on such a key starts a new window anyway). Analytics keeps
 * no identifier past 48 hours: the daily salts go, and so do the addresses of page views. E-mail changes whose link
 * expired go too (the address someone meant to use is not kept).
 * Any number of app instances may run it at once.
 */
export async function pruneExpired() {
	const endedSessions = await db
		.delete(sessions)
		.where(lt(sessions.expiresAt, sql`now()`))
		.returning({ id: sessions.id })
	const endedCounters = await db
		.delete(rateLimits)
		.where(lt(rateLimits.resetAt, sql`now() - interval '1 hour'`))
		.returning({ key: rateLimits.key })
	const oldSalts = await db
		.delete(analyticsSalts)
		.where(lt(analyticsSalts.createdAt, sql`now() - interval '48 hours'`))
		.returning({ day: analyticsSalts.day })
	const addresses = await db
		.update(visits)
		.set({ ipAddress: null })
		.where(sql`${visits.ipAddress} is not null and ${visits.visitedAt} < now() - interval '48 hours'`)
		.returning({ id: visits.id })
	const emailChanges = await pruneExpiredEmailChanges()
	return {
		sessions: endedSessions.length,
		rateLimits: endedCounters.length,
		salts: oldSalts.length,
		visitAddresses: addresses.length,
		emailChanges,
	}
}
