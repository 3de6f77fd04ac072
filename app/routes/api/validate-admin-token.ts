import { isValidAdminToken, markAdminToken } from '#app/middleware/owner.server.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { jsonError, readBody } from '#app/utils/api.server.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { refusedAttempt } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import type { Route } from './+types/validate-admin-token'

/**
 * Spec 002: `{ token }` → `{ valid }`. A valid token marks the signed-in person's server session, as /owner-panel does
 * (never browser storage); signed out, it only answers. Guesses count against the strict rate limit.
 */
async function validate({ request, context }: Route.ActionArgs) {
	const refused = await refusedAttempt('admin-token', request, context)
	if (refused) throw jsonError(429, TOO_MANY_ATTEMPTS)
	const { token } = await readBody(request)
	const valid = isValidAdminToken(token)
	const user = valid ? await getUser({ request, context }) : null
	if (!user) return { valid }
	const session = await getSession(request)
	markAdminToken(session, user.id)
	return Response.json({ valid }, { headers: { 'set-cookie': await sessionStorage.commitSession(session) } })
}

const api = resource<Route.ActionArgs>({ POST: validate })
export const loader = api.loader
export const action = api.action
