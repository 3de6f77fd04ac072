import { assignQrCodes, INVALID_CODE_IDS } from '#app/domain/admin/orders.server.ts'
import { jsonError, readBody } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-order-assign'
import { adminJson } from './admin-orders.server.ts'

/** POST /api/admin/orders/:orderId/assign-qr { qrCodeIds }: an array of ids, or the dialog's comma-separated text. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request, params }) => {
		const { qrCodeIds } = await readBody(request)
		const input = Array.isArray(qrCodeIds)
			? qrCodeIds.map(String).join(',')
			: typeof qrCodeIds === 'string' || typeof qrCodeIds === 'number'
				? String(qrCodeIds)
				: null
		if (input === null) return jsonError(400, INVALID_CODE_IDS)
		return adminJson(await assignQrCodes(params.orderId, input))
	},
})
export const loader = api.loader
export const action = api.action
