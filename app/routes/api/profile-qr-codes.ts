import { listCodes } from '#app/domain/qr/manage.server.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import { apiCode } from './qr-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/profile-qr-codes'

/** GET /api/profiles/{id}/qr-codes: the codes linked to one of the caller's profiles. */
const api = resource<Route.ActionArgs>({
	GET: ({ request, context, params }) =>
		profileApi({ request, context }, async (userId) =>
			json((await listCodes(userId, pathId(params.id, 'Profile not found'))).map(apiCode)),
		),
})

export const loader = api.loader
export const action = api.action
