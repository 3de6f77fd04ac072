import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { methodNotAllowed } from '#app/utils/api.server.ts'
import { json, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/medical-profiles'

export function loader({ request }: Route.LoaderArgs) {
	return profileApi(request, async (userId) => json(await listProfiles(userId)))
}

export function action() {
	return methodNotAllowed(['GET'])
}
