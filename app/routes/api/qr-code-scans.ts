import { scanHistory } from '#app/domain/qr/manage.server.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import { CODE_NOT_FOUND } from './qr-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/qr-code-scans'

/** GET /api/qr-codes/{id}/scans: the code's latest scans, newest first. */
const api = resource<Route.ActionArgs>({
	GET: ({ request, context, params }) =>
		profileApi({ request, context }, async (userId) => json(await scanHistory(userId, pathId(params.id, CODE_NOT_FOUND)))),
})

export const loader = api.loader
export const action = api.action
