import type { MiddlewareFunction } from 'react-router'
import { readSeenCookie, recordPageView, seenCookieFor } from '#app/domain/analytics/collect.server.ts'
import { env } from '#app/utils/env.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import { hasAdminToken } from './owner.server.ts'
import { getUser } from './user.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { log } from '#app/utils/log.server.ts'

/** Not pages a person browses: the responder page, files, e-mail links and JSON are counted elsewhere or not at all. */
const UNTRACKED = /^\/(scan|qr|e|files|api|assets)(\/|$)/

/** Whether a page path is counted as a page view at all. */
export const isTracked = (pathname: string) => !pathname.endsWith('.data') && !UNTRACKED.test(pathname)

const ownHosts = (request: Request) => [new URL(request.url).host, new URL(env.PUBLIC_URL).host]

/** Records one page view for the request's person; never fails the request it describes. */
export async function recordRequestView(
	args: RequestArgs,
	path: string,
	options: { pattern?: string | null; referrer: string | null; emailTrackingId: string | null },
) {
	try {
		const user = await getUser(args)
		const isOwner = !!user && (user.isOwner || hasAdminToken(await getSession(args), user.id))
		const headers = args.request.headers
		await recordPageView({
			path,
			pattern: options.pattern,
			userAgent: headers.get('user-agent'),
			acceptLanguage: headers.get('accept-language'),
			address: getClientIp(args.request, args.context),
			referrer: options.referrer,
			seenCookie: await readSeenCookie(headers.get('cookie')),
			userId: user?.id ?? null,
			isOwner,
			emailTrackingId: options.emailTrackingId,
			ownHosts: ownHosts(args.request),
		})
	} catch (error) {
		log.error({ err: error }, 'page view not recorded')
	}
}

/** The "seen before" cookie for a browser that has none: set on the response it is about to get. */
export async function markSeen(request: Request, headers: Headers) {
	const cookie = await seenCookieFor(await readSeenCookie(request.headers.get('cookie')))
	if (cookie) headers.append('set-cookie', cookie)
}

/**
 * Root middleware: every page a browser loads as a document (so JavaScript is not needed) is a page view. Navigations
 * made by the page's script report themselves through POST /api/page-view. Recording happens after the response is
 * made and never delays it.
 */
export const analyticsMiddleware: MiddlewareFunction<Response> = async (args, next) => {
	const response = await next()
	const { request } = args
	if (request.method !== 'GET') return response
	const url = new URL(request.url)
	if (!isTracked(url.pathname)) return response
	const emailTrackingId = url.searchParams.get('em')
	const page = response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('text/html')
	// Arriving from an e-mail link counts even when the page sends the person on (to sign in, say): that is the arrival.
	const arrival = !!emailTrackingId && response.status >= 300 && response.status < 400
	if (!page && !arrival) return response
	await markSeen(request, response.headers)
	const pattern = (args as { pattern?: string }).pattern
	void recordRequestView(args, url.pathname, { pattern, referrer: request.headers.get('referer'), emailTrackingId })
	return response
}
