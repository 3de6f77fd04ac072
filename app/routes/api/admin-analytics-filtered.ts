import { filteredAnalytics } from '#app/domain/analytics/analytics.server.ts'
import { DEFAULT_FILTER_HOURS, INVALID_HOURS, parseFilterHours } from '#app/domain/analytics/params.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-analytics-filtered'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/analytics/filtered?hours=6|12|24|48|72 (default 24) → real users only (spec 002 §3 "Filtered analytics"). */
const api = resource<Route.ActionArgs>({
	GET: async ({ request }) => {
		const asked = new URL(request.url).searchParams.get('hours')
		const hours = asked === null ? DEFAULT_FILTER_HOURS : parseFilterHours(asked)
		if (!hours) return jsonError(400, INVALID_HOURS)
		return adminJson(await filteredAnalytics(hours))
	},
})
export const loader = api.loader
export const action = api.action
