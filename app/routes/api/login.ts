import { redirect } from 'react-router'
import { authenticateWithOidc } from '#app/adapters/identity.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { env } from '#app/utils/env.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import type { Route } from './+types/login'
import { resource } from '#app/utils/resource.server.ts'
import { log } from '#app/utils/log.server.ts'

/** Starts sign-in: the identity provider when one is configured, else the local sign-in page. */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, context }) => {
		const redirectTo = new URL(request.url).searchParams.get('redirectTo')
		if (!env.oidcEnabled) {
			const local = redirectTo ? `/login?${new URLSearchParams({ redirectTo: safeRedirect(redirectTo) })}` : '/login'
			throw redirect(local)
		}
		const session = await getSession({ request, context })
		if (session.get('userId')) throw redirect(safeRedirect(redirectTo, '/dashboard'))
		let cookie: string | null = null
		if (redirectTo) {
			session.set('redirectTo', safeRedirect(redirectTo))
			cookie = await sessionStorage.commitSession(session)
		}
		try {
			await authenticateWithOidc(request)
		} catch (thrown) {
			if (thrown instanceof Response) {
				if (cookie) thrown.headers.append('set-cookie', cookie)
				throw thrown
			}
			log.error({ err: thrown }, 'sign-in failed')
			throw new Response('The sign-in service is not reachable right now. Please try again in a minute.', {
				status: 503,
				headers: { 'content-type': 'text/plain; charset=utf-8' },
			})
		}
		throw redirect('/dashboard')
	},
})

export const loader = api.loader
export const action = api.action
