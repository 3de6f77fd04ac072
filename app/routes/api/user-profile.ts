import { getPublicUser, updateName } from '#app/domain/accounts/accounts.server.ts'
import { ProfileNameSchema } from '#app/domain/accounts/schemas.ts'
import { jsonError, methodNotAllowed, readBody, requireApiUserId, validationError } from '#app/utils/api.server.ts'
import type { Route } from './+types/user-profile'

/** PUT { firstName, lastName }: saved only when one of them changed. */
export async function action({ request }: Route.ActionArgs) {
	if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
	const userId = await requireApiUserId(request)
	const parsed = ProfileNameSchema.safeParse(await readBody(request))
	if (!parsed.success) return validationError(parsed.error.issues)
	const saved = await updateName(userId, parsed.data)
	if (!saved.ok) return jsonError(404, 'User not found')
	return Response.json({ message: saved.changed ? 'Profile updated' : 'No changes', changed: saved.changed, user: await getPublicUser(userId) })
}

export function loader() {
	return methodNotAllowed(['PUT'])
}
