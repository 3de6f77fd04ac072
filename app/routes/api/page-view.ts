import { isTracked, markSeen, recordRequestView } from '#app/middleware/analytics.server.ts'
import { jsonError, readBody } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/page-view'

/**
 * `{ path }` from the page's script after a navigation it made itself (a document load is counted by the analytics
 * middleware): 204, recorded like a document view. Only a same-site path is taken.
 */
async function pageView(args: Route.ActionArgs) {
	const { path } = await readBody(args.request)
	if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//') || path.length > 512)
		throw jsonError(400, 'path must be a path of this site, such as /dashboard')
	const headers = new Headers()
	const pathname = new URL(path, 'http://local.invalid').pathname
	if (isTracked(pathname)) {
		await markSeen(args.request, headers)
		// The page reports its route's shape ('/claim/:pin'): the parameters name themselves, and are kept as names.
		await recordRequestView(args, pathname, { pattern: pathname, referrer: null, emailTrackingId: null })
	}
	return new Response(null, { status: 204, headers })
}

const api = resource<Route.ActionArgs>({ POST: pageView })
export const loader = api.loader
export const action = api.action
