import { createAccount, signupNotice } from '#app/domain/accounts/accounts.server.ts'
import { SignupSchema } from '#app/domain/accounts/schemas.ts'
import { firstVisitDay } from '#app/domain/analytics/collect.server.ts'
import { jsonError, readBody, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/signup'

const api = resource<Route.ActionArgs>({
	POST: async ({ request }) => {
		const parsed = SignupSchema.safeParse(await readBody(request))
		if (!parsed.success) return validationError(parsed.error.issues)
		const created = await createAccount({ ...parsed.data, firstVisitOn: await firstVisitDay(request.headers.get('cookie')) })
		switch (created.outcome) {
			case 'created':
				return Response.json({ notice: signupNotice(), message: 'Account created' }, { status: 201 })
			case 'taken': {
				const message = created.errors.email?.[0] ?? created.errors.username?.[0] ?? 'Signup failed'
				return jsonError(409, message, { errors: created.errors })
			}
			default: {
				const unknown: never = created
				return unknown
			}
		}
	},
})

export const loader = api.loader
export const action = api.action
