import { env } from '#app/utils/env.server.ts'
import { accountKey, hit } from '#app/utils/rate-limit.server.ts'
import type { PinAttempt } from './claims.server.ts'

/**
 * Lookups that reveal whether a PIN exists count against the same per-address and per-account budget. Null when
 * allowed, else the seconds until the next try.
 */
export async function pinLookupRefused({ userId, address }: PinAttempt): Promise<number | null> {
	const keys = [...(address ? [`pin-lookup:${address}`] : []), ...(userId ? [accountKey('pin-lookup-user', userId)] : [])]
	for (const key of keys) {
		const result = await hit(key, env.RATE_LIMIT_STRICT_PER_MINUTE)
		if (!result.allowed) return result.retryAfterSeconds
	}
	return null
}
