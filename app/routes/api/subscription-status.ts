import { subscriptionOf } from '#app/domain/giving/donations.server.ts'
import { requireApiUserId } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { json } from './profile-api.server.ts'
import type { Route } from './+types/subscription-status'

/** GET /api/subscription-status: the signed-in person's monthly gift (plan, status, renewal date), or status 'none'. */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, context }) => {
		const current = await subscriptionOf(await requireApiUserId({ request, context }))
		if (!current) return json({ status: 'none', plan: null, renewsAt: null })
		return json({ status: current.status, plan: current.plan, renewsAt: current.renewsAt?.toISOString() ?? null })
	},
})

export const loader = api.loader
export const action = api.action
