import { publicUser } from '#app/domain/accounts/accounts.server.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { jsonError } from '#app/utils/api.server.ts'
import type { Route } from './+types/auth-user'
import { resource } from '#app/utils/resource.server.ts'

const api = resource<Route.ActionArgs>({
	GET: async ({ request, context }) => {
		const user = await getUser({ request, context })
		if (!user) return jsonError(401, 'Unauthorized')
		return Response.json(publicUser(user), { headers: { 'cache-control': 'no-store' } })
	},
})

export const loader = api.loader
export const action = api.action
