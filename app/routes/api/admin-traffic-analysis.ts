import { trafficAnalysis } from '#app/domain/analytics/analytics.server.ts'
import { INVALID_DAY, parseTrafficDay } from '#app/domain/analytics/params.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-traffic-analysis'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/traffic-analysis/{YYYY-MM-DD} → one ET day's traffic (spec 002 §3 "Traffic analysis"); always JSON. */
const api = resource<Route.ActionArgs>({
	GET: async ({ params }) => {
		const day = parseTrafficDay(params.date)
		if (!day) return jsonError(400, INVALID_DAY)
		return adminJson(await trafficAnalysis(day))
	},
})
export const loader = api.loader
export const action = api.action
