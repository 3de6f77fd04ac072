import { data, type RouterContextProvider } from 'react-router'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { env } from '#app/utils/env.server.ts'
import { accountKey, hit } from '#app/utils/rate-limit.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'

/** Lookups that reveal whether a PIN exists count against the same per-address and per-account budget. */
export async function limitPinLookups(request: Request, context: Readonly<RouterContextProvider>, userId?: string | null) {
	const keys = [`pin-lookup:${getClientIp(request, context)}`, ...(userId ? [accountKey('pin-lookup-user', userId)] : [])]
	for (const key of keys) {
		const result = await hit(key, env.RATE_LIMIT_STRICT_PER_MINUTE)
		if (!result.allowed)
			throw data(TOO_MANY_ATTEMPTS, { status: 429, headers: { 'retry-after': String(result.retryAfterSeconds) } })
	}
}
