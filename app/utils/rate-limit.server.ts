import { createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { rateLimits } from '#db/schema.ts'
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
