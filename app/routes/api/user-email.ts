import { changeEmail, getPublicUser } from '#app/domain/accounts/accounts.server.ts'
import { ChangeEmailSchema, EMAIL_UNCHANGED } from '#app/domain/accounts/schemas.ts'
import { jsonError, readBody, requireApiUserId, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/user-email'

/** PUT { email }: a new, different, unused address; a welcome e-mail goes to it. */
const api = resource<Route.ActionArgs>({
	PUT: async ({ request }) => {
		const userId = await requireApiUserId(request)
		const parsed = ChangeEmailSchema.safeParse(await readBody(request))
		if (!parsed.success) return validationError(parsed.error.issues)
		const changed = await changeEmail(userId, parsed.data.email)
		if (!changed.ok) return jsonError(changed.error === EMAIL_UNCHANGED ? 400 : 409, changed.error, { errors: { email: [changed.error] } })
		return Response.json({
			message: `Email updated. A welcome email has been sent to ${changed.email}.`,
			user: await getPublicUser(userId),
		})
	},
})

export const loader = api.loader
export const action = api.action
