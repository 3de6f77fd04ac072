import { analyticsOverview } from '#app/domain/analytics/analytics.server.ts'
import { TimeRangeSchema } from '#app/domain/admin/time-range.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-analytics'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/analytics?timeRange=24hours|7days|30days|90days (anything else: 7days) → spec 002 §3 "Analytics". */
const api = resource<Route.ActionArgs>({
	GET: async ({ request }) =>
		adminJson(await analyticsOverview(TimeRangeSchema.parse(new URL(request.url).searchParams.get('timeRange') ?? undefined))),
})
export const loader = api.loader
export const action = api.action
