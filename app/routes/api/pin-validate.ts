import { checkPin } from '#app/domain/claims/claims.server.ts'
import { readBody } from '#app/utils/api.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/pin-validate'

/** Validates like the landing page's PIN card, and likewise remembers a valid PIN as pending. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request, context }) => {
		const body = await readBody(request)
		const session = await getSession({ request, context })
		const check = await checkPin(body.pin, { userId: session.get('userId'), address: getClientIp(request, context) })
		if (!check.valid) return Response.json({ valid: false, message: check.message }, { status: check.status })
		session.set('pendingPin', check.pin)
		return Response.json(
			{ valid: true, message: 'PIN is valid' },
			{ headers: { 'set-cookie': await sessionStorage.commitSession(session) } },
		)
	},
})

export const loader = api.loader
export const action = api.action
