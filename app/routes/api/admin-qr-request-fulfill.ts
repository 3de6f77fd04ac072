import { fulfillQrRequest } from '#app/domain/admin/requests-queue.server.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { readBody } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-qr-request-fulfill'
import { adminJson } from './admin-orders.server.ts'

/** PUT /api/admin/qr-request/:id/fulfill (no payload in the spec; optionally { qrCodeIds: number[], notify: boolean }). */
const api = resource<Route.ActionArgs>({
	PUT: async (args) => {
		const owner = await requireGrantedOwner(args)
		const body = await readBody(args.request)
		const qrCodeIds = Array.isArray(body.qrCodeIds) ? body.qrCodeIds.map(Number) : undefined
		return adminJson(await fulfillQrRequest(Number(args.params.id), { qrCodeIds, notify: body.notify === true, actorUserId: owner.id }))
	},
})
export const loader = api.loader
export const action = api.action
