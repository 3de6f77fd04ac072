import { DomainError } from '#app/domain/errors.ts'
import { redirect } from 'react-router'
import { authenticateWithOidc, IdentityError } from '#app/adapters/identity.server.ts'
import { findOrCreateOidcUser } from '#app/domain/accounts/accounts.server.ts'
import { firstVisitDay } from '#app/domain/analytics/collect.server.ts'
import { createUserSession } from '#app/routes/auth/sign-in.server.ts'
import { env } from '#app/utils/env.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/callback'

export async function loader({ request }: Route.LoaderArgs) {
	if (!env.oidcEnabled) throw redirect('/login')
	let userId: string
	try {
		userId = (await findOrCreateOidcUser(await authenticateWithOidc(request), firstVisitDay(request.headers.get('cookie')))).id
	} catch (error) {
		if (error instanceof Response) throw error
		const description =
			error instanceof IdentityError || error instanceof DomainError ? error.message : 'Sign-in did not complete. Please try again.'
		if (!(error instanceof IdentityError || error instanceof DomainError)) console.error(error)
		return redirectWithToast('/auth?auth=failed', { type: 'error', title: 'Sign-in failed', description })
	}
	return createUserSession(request, userId)
}
