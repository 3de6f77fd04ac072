import { orderDetails } from '#app/domain/admin/orders.server.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-order-details'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/order-details/:orderId → { order, customer, qrCodes }. */
const api = resource<Route.ActionArgs>({
	GET: async ({ params }) => {
		const details = await orderDetails(params.orderId)
		return details ? adminJson(details) : jsonError(404, 'Order not found.')
	},
})
export const loader = api.loader
export const action = api.action
