import { setFulfillmentStatus } from '#app/domain/admin/orders.server.ts'
import { jsonError, readBody } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-order-status'
import { adminJson } from './admin-orders.server.ts'

/** PATCH /api/admin/orders/:orderId/status { fulfillmentStatus }: only the moves spec 002 §4 allows; 409 otherwise. */
const api = resource<Route.ActionArgs>({
	PATCH: async ({ request, params }) => {
		const { fulfillmentStatus } = await readBody(request)
		if (typeof fulfillmentStatus !== 'string' || !fulfillmentStatus) return jsonError(400, 'fulfillmentStatus is required')
		return adminJson({ order: await setFulfillmentStatus(params.orderId, fulfillmentStatus) })
	},
})
export const loader = api.loader
export const action = api.action
