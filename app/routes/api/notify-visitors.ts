import { notifyRecentVisitors } from '#app/domain/admin/visitors.server.ts'
import { TimeRangeSchema } from '#app/domain/admin/time-range.ts'
import { readBody } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/notify-visitors'
import { adminJson } from './admin-orders.server.ts'

/** POST /api/notify-visitors (spec: no payload; optionally { timeRange, subject, text }) → { successCount, totalUsers }. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request }) => {
		const body = await readBody(request)
		const range = TimeRangeSchema.parse(body.timeRange ?? new URL(request.url).searchParams.get('timeRange') ?? undefined)
		const message = {
			subject: typeof body.subject === 'string' ? body.subject : undefined,
			text: typeof body.text === 'string' ? body.text : undefined,
		}
		return adminJson(await notifyRecentVisitors(range, message))
	},
})
export const loader = api.loader
export const action = api.action
