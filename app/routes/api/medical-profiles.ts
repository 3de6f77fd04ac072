import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { toProfileListView } from '#app/domain/profiles/views.ts'
import { json, profileApi } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/medical-profiles'

const api = resource<Route.ActionArgs>({
	GET: ({ request, context }) =>
		profileApi({ request, context }, async (userId) => json((await listProfiles(userId)).map(toProfileListView))),
})

export const loader = api.loader
export const action = api.action
