import { destroyUserSession } from '#app/utils/auth.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/auth-logout'

/** Ends the session row, so every tab is signed out on its next request. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request, context }) => {
		const cookie = await destroyUserSession({ request, context })
		const wantsJson = (request.headers.get('accept') ?? '').includes('application/json')
		if (wantsJson) return Response.json({ success: true }, { headers: { 'set-cookie': cookie } })
		return redirectWithToast(
			'/auth',
			{ title: 'Logged Out', description: 'You have been signed out.' },
			{ headers: { 'set-cookie': cookie } },
		)
	},
})

export const loader = api.loader
export const action = api.action
