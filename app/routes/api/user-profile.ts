import { getPublicUser, updateName } from '#app/domain/accounts/accounts.server.ts'
import { ProfileNameSchema } from '#app/domain/accounts/schemas.ts'
import { readBody, requireApiUserId, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/user-profile'

/** PUT { firstName, lastName }: saved only when one of them changed. */
const api = resource<Route.ActionArgs>({
	PUT: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		const parsed = ProfileNameSchema.safeParse(await readBody(request))
		if (!parsed.success) return validationError(parsed.error.issues)
		const saved = await updateName(userId, parsed.data)
		return Response.json({
			message: saved.changed ? 'Profile updated' : 'No changes',
			changed: saved.changed,
			user: await getPublicUser(userId),
		})
	},
})

export const loader = api.loader
export const action = api.action
