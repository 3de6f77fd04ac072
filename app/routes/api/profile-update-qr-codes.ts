import { refreshProfileCodes } from '#app/domain/profiles/profiles.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { methodNotAllowed } from '#app/utils/api.server.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/profile-update-qr-codes'

/** POST /api/profiles/{id}/update-qr-codes: confirms the profile's information, which every code of it shows. */
export function action({ request, params }: Route.ActionArgs) {
	if (request.method !== 'POST') return methodNotAllowed(['POST'])
	return profileApi(request, async (userId) => {
		const updated = await refreshProfileCodes(userId, pathId(params.id, 'Profile not found'))
		return json({ updated, message: QR_MESSAGES.refreshed(updated) })
	})
}

export function loader() {
	return methodNotAllowed(['POST'])
}
