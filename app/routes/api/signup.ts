import { createAccount, signupNotice } from '#app/domain/accounts/accounts.server.ts'
import { SignupSchema } from '#app/domain/accounts/schemas.ts'
import { jsonError, methodNotAllowed, readBody, validationError } from '#app/utils/api.server.ts'
import type { Route } from './+types/signup'

export async function action({ request }: Route.ActionArgs) {
	const parsed = SignupSchema.safeParse(await readBody(request))
	if (!parsed.success) return validationError(parsed.error.issues)
	const created = await createAccount(parsed.data)
	if (!created.ok) {
		const message = created.errors.email?.[0] ?? created.errors.username?.[0] ?? 'Signup failed'
		return jsonError(409, message, { errors: created.errors })
	}
	return Response.json({ notice: signupNotice(), message: 'Account created' }, { status: 201 })
}

export function loader() {
	return methodNotAllowed(['POST'])
}
