import { listOrders } from '#app/domain/admin/orders.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-orders'
import { adminJson } from './admin-orders.server.ts'

/** GET /api/admin/orders[?page=N]: spec 002's `orders`, 10 a page, newest first, with the page count. */
const api = resource<Route.ActionArgs>({
	GET: async ({ request }) => {
		const page = Number.parseInt(new URL(request.url).searchParams.get('page') ?? '1', 10)
		return adminJson(await listOrders({ page: Number.isSafeInteger(page) ? page : 1 }))
	},
})
export const loader = api.loader
export const action = api.action
