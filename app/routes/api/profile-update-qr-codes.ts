import { refreshProfileCodes } from '#app/domain/profiles/profiles.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/profile-update-qr-codes'

/** POST /api/profiles/{id}/update-qr-codes: confirms the profile's information, which every code of it shows. */
const api = resource<Route.ActionArgs>({
	POST: ({ request, context, params }) => {
		return profileApi({ request, context }, async (userId) => {
			const updated = await refreshProfileCodes(userId, pathId(params.id, 'Profile not found'))
			return json({ updated, message: QR_MESSAGES.refreshed(updated) })
		})
	},
})

export const loader = api.loader
export const action = api.action
