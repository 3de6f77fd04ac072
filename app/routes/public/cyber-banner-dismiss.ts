import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import { z } from 'zod'
import { hideCyberBanner } from '#app/utils/cyber-banner.server.ts'
import { env, isProduction } from '#app/utils/env.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import type { Route } from './+types/cyber-banner-dismiss'

/** Where to go back to; anything that is not one page of this site is the home page (safeRedirect). */
const DismissSchema = z.object({ redirectTo: z.string().optional().catch(undefined) })

/** Dismissing the cyber-risk banner without JavaScript: remember it in a cookie and go back to the page. */
export async function action({ request }: Route.ActionArgs) {
	// A body that is not a form still dismisses the banner: there is nothing in it to refuse.
	const formData = await request.formData().catch(() => new FormData())
	const submission = parseWithZod(formData, { schema: DismissSchema })
	const back = safeRedirect(submission.status === 'success' ? submission.value.redirectTo : undefined, '/')
	return redirect(back, { headers: { 'set-cookie': await hideCyberBanner(isProduction && env.PUBLIC_URL.startsWith('https:')) } })
}

export function loader() {
	return redirect('/')
}
