import { destroyUserSession } from '#app/utils/auth.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { methodNotAllowed } from '#app/utils/api.server.ts'
import type { Route } from './+types/auth-logout'

/** Ends the session row, so every tab is signed out on its next request. */
export async function action({ request }: Route.ActionArgs) {
	const cookie = await destroyUserSession(request)
	const wantsJson = (request.headers.get('accept') ?? '').includes('application/json')
	if (wantsJson) return Response.json({ success: true }, { headers: { 'set-cookie': cookie } })
	return redirectWithToast(
		'/auth',
		{ title: 'Logged Out', description: 'You have been signed out.' },
		{ headers: { 'set-cookie': cookie } },
	)
}

export function loader() {
	return methodNotAllowed(['POST'])
}
