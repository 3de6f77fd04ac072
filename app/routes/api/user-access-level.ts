import { getAccessLevel } from '#app/domain/claims/claims.server.ts'
import { json, profileApi } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/user-access-level'

const api = resource<Route.ActionArgs>({
	GET: ({ request }) => profileApi(request, async (userId) => json(await getAccessLevel(userId))),
})

export const loader = api.loader
export const action = api.action
