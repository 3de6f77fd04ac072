import { getUser } from '#app/utils/auth.server.ts'
import { jsonError } from '#app/utils/api.server.ts'
import type { Route } from './+types/auth-user'

export async function loader({ request }: Route.LoaderArgs) {
	const user = await getUser(request)
	if (!user) return jsonError(401, 'Unauthorized')
	return Response.json(user, { headers: { 'cache-control': 'no-store' } })
}
