import { listCodes } from '#app/domain/qr/manage.server.ts'
import { methodNotAllowed } from '#app/utils/api.server.ts'
import { json, pathId } from './profile-api.server.ts'
import { apiCode, qrApi } from './qr-api.server.ts'
import type { Route } from './+types/profile-qr-codes'

/** GET /api/profiles/{id}/qr-codes: the codes linked to one of the caller's profiles. */
export function loader({ request, params }: Route.LoaderArgs) {
	return qrApi(request, async (userId) => json((await listCodes(userId, pathId(params.id, 'Profile not found'))).map(apiCode)))
}

export function action() {
	return methodNotAllowed(['GET'])
}
