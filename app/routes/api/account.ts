import { deleteAccount } from '#app/domain/accounts/accounts.server.ts'
import { jsonError, requireApiUserId } from '#app/utils/api.server.ts'
import { destroyUserSession } from '#app/utils/auth.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/account'
import { log } from '#app/utils/log.server.ts'

/** DELETE: the account and everything of the person's, as on the Profile tab; the session ends with it. */
const api = resource<Route.ActionArgs>({
	DELETE: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		try {
			await deleteAccount(userId)
		} catch (error) {
			log.error({ err: error }, 'account not deleted')
			return jsonError(500, 'Failed to delete account. Please try again.')
		}
		return Response.json({ message: 'Account deleted' }, { headers: { 'set-cookie': await destroyUserSession({ request, context }) } })
	},
})

export const loader = api.loader
export const action = api.action
