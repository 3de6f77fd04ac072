import { endCaregiver, inviteCaregiver, listCaregivers } from '#app/domain/profiles/caregivers.server.ts'
import { CAREGIVER_MESSAGES, CaregiverInviteSchema } from '#app/domain/profiles/caregiver-schemas.ts'
import { PROFILE_NOT_FOUND } from '#app/domain/profiles/access.server.ts'
import { readBody, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/caregivers'

/**
 * GET /api/medical-profiles/{id}/caregivers: the profile's caregivers and waiting invitations (its owner only).
 * POST invites `{ email, role }`. DELETE /api/medical-profiles/{id}/caregivers/{caregiverId}: the owner revokes, or a
 * caregiver leaves (their own caregiverId, listed with the profile in GET /api/medical-profiles).
 */
const api = resource<Route.ActionArgs>(({ params }) => {
	if (params.caregiverId === undefined)
		return {
			GET: (args) => profileApi(args, async (userId) => json(await listCaregivers(userId, pathId(params.id, PROFILE_NOT_FOUND)))),
			POST: (args) =>
				profileApi(args, async (userId) => {
					const profileId = pathId(params.id, PROFILE_NOT_FOUND)
					const parsed = CaregiverInviteSchema.safeParse(await readBody(args.request))
					if (!parsed.success) return validationError(parsed.error.issues)
					return json(await inviteCaregiver(userId, profileId, parsed.data), 201)
				}),
		}
	const caregiverId = params.caregiverId
	return {
		DELETE: (args) =>
			profileApi(args, async (userId) => {
				const profileId = pathId(params.id, PROFILE_NOT_FOUND)
				const ended = await endCaregiver(userId, profileId, pathId(caregiverId, CAREGIVER_MESSAGES.notFound))
				return json({ success: true, id: Number(caregiverId), ...ended })
			}),
	}
})

export const loader = api.loader
export const action = api.action
