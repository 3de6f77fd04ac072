import { toggleCode } from '#app/domain/qr/manage.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import { CODE_NOT_FOUND } from './qr-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/qr-code-toggle'

/** PATCH /api/qr-codes/{id}/toggle: active codes show the profile when scanned, inactive ones the neutral page. */
const api = resource<Route.ActionArgs>({
	PATCH: ({ request, context, params }) => {
		return profileApi({ request, context }, async (userId) => {
			const isActive = await toggleCode(userId, pathId(params.id, CODE_NOT_FOUND))
			const { title, description } = isActive ? QR_MESSAGES.activated : QR_MESSAGES.deactivated
			return json({ isActive, title, message: description })
		})
	},
})

export const loader = api.loader
export const action = api.action
