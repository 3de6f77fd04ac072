import { getPublicUser } from '#app/domain/accounts/accounts.server.ts'
import { cancelEmailChange, pendingEmailChange, requestEmailChange } from '#app/domain/accounts/email-change.server.ts'
import { ChangeEmailSchema } from '#app/domain/accounts/schemas.ts'
import { readBody, requireApiUserId, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/user-email'

/**
 * PUT { email }: a new, different, unused address. Nothing changes yet: a link goes to the new address and the e-mail
 * changes once it is opened (the current address is told). GET: the change waiting for its link; DELETE withdraws it.
 */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		return Response.json({ pending: await pendingEmailChange(userId) })
	},
	PUT: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		const parsed = ChangeEmailSchema.safeParse(await readBody(request))
		if (!parsed.success) return validationError(parsed.error.issues)
		const requested = await requestEmailChange(userId, parsed.data.email)
		return Response.json({
			message: `We sent a link to ${requested.email}. Your email changes once you open it.`,
			pending: { email: requested.email, expiresAt: requested.expiresAt },
			user: await getPublicUser(userId),
		})
	},
	DELETE: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		const cancelled = await cancelEmailChange(userId)
		return Response.json({ message: cancelled ? 'Email change cancelled' : 'No email change was waiting', cancelled })
	},
})

export const loader = api.loader
export const action = api.action
