import { redirect } from 'react-router'
import { hideCyberBanner } from '#app/utils/cyber-banner.server.ts'
import { env, isProduction } from '#app/utils/env.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import type { Route } from './+types/cyber-banner-dismiss'

/** Dismissing the cyber-risk banner without JavaScript: remember it in a cookie and go back to the page. */
export async function action({ request }: Route.ActionArgs) {
	const formData = await request.formData().catch(() => null)
	const back = safeRedirect(formData?.get('redirectTo'), '/')
	return redirect(back, { headers: { 'set-cookie': await hideCyberBanner(isProduction && env.PUBLIC_URL.startsWith('https:')) } })
}

export function loader() {
	return redirect('/')
}
