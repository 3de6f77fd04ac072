import { getAccessLevel } from '#app/domain/claims/claims.server.ts'
import { methodNotAllowed } from '#app/utils/api.server.ts'
import { json, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/user-access-level'

export function loader({ request }: Route.LoaderArgs) {
	return profileApi(request, async (userId) => json(await getAccessLevel(userId)))
}

export function action() {
	return methodNotAllowed(['GET'])
}
