import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { listSharedProfiles } from '#app/domain/profiles/caregivers.server.ts'
import { toProfileListView } from '#app/domain/profiles/views.ts'
import { json, profileApi } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/medical-profiles'

/**
 * GET /api/medical-profiles: the person's own profiles (`access: "owner"`), then those others shared with them
 * (`access: "editor"` or `"viewer"`, `sharedBy` the owner's first name, `caregiverId` to leave with).
 */
const api = resource<Route.ActionArgs>({
	GET: ({ request, context }) =>
		profileApi({ request, context }, async (userId) => {
			const [owned, shared] = await Promise.all([listProfiles(userId), listSharedProfiles(userId)])
			return json([
				...owned.map((p) => ({ ...toProfileListView(p), access: 'owner' })),
				...shared.map(({ role, ...p }) => ({ ...toProfileListView(p), access: role })),
			])
		}),
})

export const loader = api.loader
export const action = api.action
