import { data, type MiddlewareFunction } from 'react-router'
import { env } from '#app/utils/env.server.ts'
import { pageUrl, WRONG_METHOD_MESSAGE } from '#app/utils/http.ts'
import { hit, limitAttempts, TOO_MANY_ATTEMPTS, type AttemptBucket } from '#app/utils/rate-limit.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { SESSION_COOKIE } from '#app/utils/session.server.ts'

export { TOO_MANY_ATTEMPTS }

/**
 * JSON calls that guess at secrets (PINs) or send mail get the strict tier for every request. Their page forms
 * (/login, /signup, /request-qr, /order-tracking, /claim/:pin, the Profile tab's e-mail change) count against the same
 * buckets in their actions, so a refusal keeps the page and what was typed; a PIN typed into any other form is limited
 * where it is checked.
 */
const strictBuckets: Array<[bucket: AttemptBucket, test: RegExp]> = [
	['signin', /^\/auth\/callback$/],
	['signup', /^\/api\/signup$/],
	['qr-request', /^\/api\/qr-request$/],
	['email-change', /^\/api\/user\/email$/],
	['pin', /^\/api\/pin\/(validate|claim)$/],
	// A link's passcode is a secret too.
	['shl', /^\/shl\//],
]

/**
 * A SMART Health Link's manifest and file: asked for by viewers on other sites, with no cookie read and none set, so
 * there is nothing to forge and no origin to check. Each answers its own methods, CORS preflight included.
 */
const SHL_PATH = /^\/shl\/[^/]+(\/file)?$/

const HTTPS = new URL(env.PUBLIC_URL).protocol === 'https:'

const PAGE_METHODS = ['GET', 'HEAD', 'POST']

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
	if (SHL_PATH.test(path)) {
		const viewer = new Headers(headers)
		viewer.set('access-control-allow-origin', '*')
		return Response.json({ message }, { status, headers: viewer })
	}
	if (path.startsWith('/api/')) return Response.json({ message }, { status, headers })
	return data(message, { status, headers })
}

export const securityMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	// No text anywhere here may hold a NUL (PostgreSQL refuses it), so an address with one is refused up front.
	if (/%00/.test(request.url)) throw refuse(pageUrl(request).pathname, 400, 'This address contains a character that is not allowed.')
	const path = pageUrl(request).pathname
	// Pages are read and posted as forms; the JSON routes under /api answer each method themselves.
	if (!path.startsWith('/api/') && !SHL_PATH.test(path) && !PAGE_METHODS.includes(request.method))
		throw refuse(path, 405, WRONG_METHOD_MESSAGE, { allow: PAGE_METHODS.join(', ') })
	if (!isSafeMethod(request.method)) {
		if (!SHL_PATH.test(path) && !sameOrigin(request)) throw refuse(path, 403, 'This request came from another site and was refused.')
		const ip = getClientIp(request, context)
		const strict = strictBuckets.find(([, test]) => test.test(path))
		// A page view reported by the page's script changes nothing of anyone's; the recorder caps it per address.
		const result = strict
			? await limitAttempts(strict[0], ip)
			: path === '/api/page-view'
				? { allowed: true, retryAfterSeconds: 0 }
				: await hit(`mutation:${ip}`, env.RATE_LIMIT_LOOSE_PER_MINUTE)
		if (!result.allowed) throw refuse(path, 429, TOO_MANY_ATTEMPTS, { 'retry-after': String(result.retryAfterSeconds) })
	}
	const response = await next()
	// The router's own 405 (a POST to a page or download that has no action) names no methods: those serve GET alone.
	if (response.status === 405 && !response.headers.has('allow') && !path.startsWith('/api/') && !SHL_PATH.test(path))
		response.headers.set('allow', 'GET, HEAD')
	setSecurityHeaders(response.headers)
	// The e-mail open pixel is loaded by mail clients on other sites.
	if (path.startsWith('/e/o/')) response.headers.set('cross-origin-resource-policy', 'cross-origin')
	if (SHL_PATH.test(path)) response.headers.set('cross-origin-resource-policy', 'cross-origin')
	// A responder saying "I'm helping" may add where they are: the responder pages alone may ask for the position.
	if (path.startsWith('/scan/')) response.headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(self), payment=()')
	keepPersonalPagesPrivate(request, response.headers)
	return response
}

/**
 * A page or .data answer for someone with a session (signed in, or a guest with a cart) is theirs alone: no shared
 * cache or back-forward cache may keep it. A route that chose a private policy of its own keeps it.
 */
function keepPersonalPagesPrivate(request: Request, headers: Headers) {
	const cookies = request.headers.get('cookie') ?? ''
	const personal = cookies.split(';').some((c) => c.trim().startsWith(`${SESSION_COOKIE}=`)) || headers.has('set-cookie')
	if (personal && !/\b(private|no-store)\b/.test(headers.get('cache-control') ?? '')) headers.set('cache-control', 'private, no-store')
}

export function setSecurityHeaders(headers: Headers, https = HTTPS) {
	headers.set('x-content-type-options', 'nosniff')
	headers.set('referrer-policy', 'strict-origin-when-cross-origin')
	headers.set('cross-origin-opener-policy', 'same-origin')
	headers.set('cross-origin-resource-policy', 'same-origin')
	headers.set('x-frame-options', 'DENY')
	headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()')
	if (https) headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains')
}
