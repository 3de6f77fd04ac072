import { getAccessLevel } from '#app/domain/claims/claims.server.ts'
import { requireApiUserId } from '#app/utils/api.server.ts'
import { json } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/user-access-level'

const api = resource<Route.ActionArgs>({
	GET: async ({ request, context }) => json(await getAccessLevel(await requireApiUserId({ request, context }))),
})

export const loader = api.loader
export const action = api.action
