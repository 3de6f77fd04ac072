import { claimCode } from '#app/domain/claims/claims.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { jsonError, readBody, requireApiUserId } from '#app/utils/api.server.ts'
import { clearPendingPin } from '#app/utils/auth.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/pin-claim'

const ProfileIdSchema = IdSchema.optional()

const api = resource<Route.ActionArgs>({
	POST: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		const body = await readBody(request)
		const profileId = ProfileIdSchema.safeParse(
			body.medicalProfileId === '' || body.medicalProfileId === null ? undefined : body.medicalProfileId,
		)
		if (!profileId.success) return jsonError(400, 'Invalid profile', { errors: { medicalProfileId: ['Invalid profile'] } })
		const claimed = await claimCode(
			{ userId, address: getClientIp(request, context) },
			body.pin,
			profileId.data ? { profileId: profileId.data } : undefined,
		)
		const cookie = await clearPendingPin({ request, context })
		return Response.json(
			{ success: true, qrCodeId: claimed.qrCodeId, qrCodeToken: claimed.token },
			{ headers: cookie ? { 'set-cookie': cookie } : undefined },
		)
	},
})

export const loader = api.loader
export const action = api.action
