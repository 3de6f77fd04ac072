import { markAdminToken, presentAdminToken } from '#app/middleware/owner.server.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { jsonError, readBody } from '#app/utils/api.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import type { Route } from './+types/validate-admin-token'

/**
 * Spec 002: `{ token }` → `{ valid }`, for signed-in people only (a visitor is a 401 and nothing is checked). A valid
 * token marks the person's server session, as /owner-panel does (never browser storage). Every try counts per address
 * and per account.
 */
async function validate({ request, context }: Route.ActionArgs) {
	const user = await getUser({ request, context })
	if (!user) throw jsonError(401, 'Authentication required - please refresh the page')
	const { token } = await readBody(request)
	const { valid, retryAfterSeconds } = await presentAdminToken({ request, context }, user.id, token)
	if (retryAfterSeconds) throw new DomainError(429, TOO_MANY_ATTEMPTS, undefined, retryAfterSeconds)
	if (!valid) return { valid }
	const session = await getSession({ request, context })
	markAdminToken(session, user.id)
	return Response.json({ valid }, { headers: { 'set-cookie': await sessionStorage.commitSession(session) } })
}

const api = resource<Route.ActionArgs>({ POST: validate })
export const loader = api.loader
export const action = api.action
