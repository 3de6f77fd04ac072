import { getAccessLevel } from '#app/domain/claims/claims.server.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { json, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/activate-free-access'

export const FREE_ACCESS_NOT_GRANTED =
	'Generating your own QR codes is a free access the Hit Me Helpers team grants. Claim the PIN on your sticker or card, or request a free QR code by mail.'

/**
 * Spec 002 §7. Free access (a legacy account's own QR codes) is the owner's to grant, never a person's to take: the
 * call says whether it is granted and changes nothing.
 */
const api = resource<Route.ActionArgs>({
	POST: ({ request, context }) =>
		profileApi({ request, context }, async (userId) => {
			const { isGrandfathered } = await getAccessLevel(userId)
			if (!isGrandfathered) return jsonError(403, FREE_ACCESS_NOT_GRANTED)
			return json({ success: true, isGrandfathered: true, message: 'Free access is active: you can generate your own QR codes.' })
		}),
})

export const loader = api.loader
export const action = api.action
