import { data, type MiddlewareFunction } from 'react-router'
import { env } from '#app/utils/env.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { hit } from '#app/utils/rate-limit.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a minute and try again.'

/** Mutations that guess at secrets (passwords, PINs) or create accounts get the strict tier. */
const strictBuckets: Array<[bucket: string, test: RegExp]> = [
	['signin', /^\/(login|auth\/callback)$/],
	['signup', /^\/(signup|api\/signup)$/],
	// Each free QR request sends an e-mail to the address given.
	['qr-request', /^\/(request-qr|api\/qr-request)$/],
	// Tracking guesses at a confirmation number and e-mail pair.
	['order-tracking', /^\/order-tracking$/],
	// POST /api/medical-profile claims a sticker when it creates a family member.
	['pin', /^\/(auth|register|signin|dashboard|subscribe|api\/pin\/validate|api\/pin\/claim|api\/medical-profile|claim\/[^/]+)?$/],
]

function isSafeMethod(method: string) {
	return method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
}

function sameOrigin(request: Request) {
	const origin = request.headers.get('origin')
	if (request.headers.get('sec-fetch-site') === 'cross-site') return false
	if (!origin) return true
	const allowed = new Set([new URL(request.url).origin, new URL(env.PUBLIC_URL).origin])
	const host = request.headers.get('host')
	if (host) allowed.add(`${new URL(request.url).protocol}//${host}`)
	return allowed.has(origin)
}

function refuse(path: string, status: number, message: string, headers?: HeadersInit) {
	if (path.startsWith('/api/')) return Response.json({ message }, { status, headers })
	return data(message, { status, headers })
}

export const securityMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	// No text anywhere here may hold a NUL (PostgreSQL refuses it), so an address with one is refused up front.
	if (/%00/.test(request.url)) throw refuse(pageUrl(request).pathname, 400, 'This address contains a character that is not allowed.')
	if (!isSafeMethod(request.method)) {
		const path = pageUrl(request).pathname
		if (!sameOrigin(request)) throw refuse(path, 403, 'This request came from another site and was refused.')
		const ip = getClientIp(request, context)
		const strict = strictBuckets.find(([, test]) => test.test(path))
		const result = strict
			? await hit(`${strict[0]}:${ip}`, env.RATE_LIMIT_STRICT_PER_MINUTE)
			: await hit(`mutation:${ip}`, env.RATE_LIMIT_LOOSE_PER_MINUTE)
		if (!result.allowed)
			throw refuse(path, 429, TOO_MANY_ATTEMPTS, { 'retry-after': String(result.retryAfterSeconds) })
	}
	const response = await next()
	setSecurityHeaders(response.headers)
	return response
}

export function setSecurityHeaders(headers: Headers) {
	headers.set('x-content-type-options', 'nosniff')
	headers.set('referrer-policy', 'strict-origin-when-cross-origin')
	headers.set('cross-origin-opener-policy', 'same-origin')
	headers.set('cross-origin-resource-policy', 'same-origin')
	headers.set('x-frame-options', 'DENY')
	headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()')
}
