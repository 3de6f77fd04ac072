import { createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { rateLimits } from '#db/schema.ts'
import { addressGroup } from './client-address.ts'
import { env } from './env.server.ts'

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a minute and try again.'

export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number }

/**
 * Fixed one-window counter in PostgreSQL, so every app instance shares it.
 * One statement: the first hit (or the first after the window) resets the count. Counters long past their window are
 * deleted by pruneExpired (app/domain/housekeeping).
 */
export async function hit(key: string, limit: number, windowSeconds = 60): Promise<RateLimitResult> {
	const [row] = await db
		.insert(rateLimits)
		.values({ key, count: 1, resetAt: sql`now() + make_interval(secs => ${windowSeconds})` })
		.onConflictDoUpdate({
			target: rateLimits.key,
			set: {
				count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
				resetAt: sql`case when ${rateLimits.resetAt} <= now() then now() + make_interval(secs => ${windowSeconds}) else ${rateLimits.resetAt} end`,
			},
		})
		.returning({ count: rateLimits.count, resetAt: rateLimits.resetAt })
	const count = row?.count ?? 1
	const retryAfterSeconds = Math.max(1, Math.ceil(((row?.resetAt.getTime() ?? Date.now()) - Date.now()) / 1000))
	return { allowed: count <= limit, remaining: Math.max(0, limit - count), retryAfterSeconds }
}

/** The count in a key's current window, without counting this look. */
export async function peek(key: string) {
	const row = await db.query.rateLimits.findFirst({ where: sql`${rateLimits.key} = ${key} and ${rateLimits.resetAt} > now()` })
	return row?.count ?? 0
}

/** Requests that guess at a secret or send mail: the strict tier, shared by a JSON call and its page form. */
export type AttemptBucket =
	'signin' | 'signup' | 'qr-request' | 'order-tracking' | 'pin' | 'donate' | 'admin-token' | 'email-change' | 'shl'

export function limitAttempts(bucket: AttemptBucket, address: string) {
	return hit(`${bucket}:${address}`, env.RATE_LIMIT_STRICT_PER_MINUTE)
}

/**
 * A counter for one account (an e-mail or a user id) is keyed by a keyed hash of it, so the table never holds who was
 * limited and nothing of a deleted account stays in it.
 */
export function accountKey(bucket: string, identity: string) {
	return `${bucket}:${createHmac('sha256', env.sessionSecrets[0]!).update(identity).digest('base64url').slice(0, 24)}`
}

/** Hands one count of a key back (a right answer that was counted before it was checked); a count of one goes. */
async function forgive(key: string) {
	await db.execute(sql`
		with gone as (delete from ${rateLimits} where key = ${key} and count <= 1)
		update ${rateLimits} set count = count - 1 where key = ${key} and count > 1 and reset_at > now()`)
}

/** Where a guess at an account's secret comes from: its address, and whether the browser has signed in to the account before. */
export type GuessSource = { address: string; trustedDevice: boolean }

/** The ceiling of one account's guesses over all addresses, in multiples of the per-address limit. */
export const ACCOUNT_CEILING_FACTOR = 10

export type GuessCount = { allowed: boolean; retryAfterSeconds: number; forgive(): Promise<void> }

/**
 * A guess at one account's secret (a password, a second-factor code), counted before it is checked, so guesses sent at
 * once are all counted; a right answer is handed back with forgive(), so only wrong ones add up. Counted per account and
 * address (an IPv6 address by its /64): guesses from one address never lock the account's owner out at theirs. Over all
 * addresses there is a ceiling ten times as high, against guesses spread over many; a browser that has signed in to the
 * account before (a trusted-device cookie) is not held to it, so even then the owner's right answer goes through.
 */
export async function countGuess(
	bucket: string,
	account: string,
	source: GuessSource,
	limit: number,
	windowSeconds = 60,
): Promise<GuessCount> {
	const own = accountKey(bucket, `${account}\0${addressGroup(source.address)}`)
	const all = accountKey(`${bucket}-account`, account)
	const [mine, everyone] = await Promise.all([hit(own, limit, windowSeconds), hit(all, limit * ACCOUNT_CEILING_FACTOR, windowSeconds)])
	const refused = [mine, ...(source.trustedDevice ? [] : [everyone])].filter((result) => !result.allowed)
	return {
		allowed: refused.length === 0,
		retryAfterSeconds: Math.max(1, ...refused.map((result) => result.retryAfterSeconds)),
		forgive: () => Promise.all([forgive(own), forgive(all)]).then(() => undefined),
	}
}
