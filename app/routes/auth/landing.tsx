import { readPageForm } from '#app/utils/request.server.ts'
import { redirect } from 'react-router'
import { getUser } from '#app/middleware/user.server.ts'
import type { Route } from './+types/landing'
import { LandingView, WelcomeBackView } from '../../features/landing/landing-view.tsx'
import { pinAction } from '../../features/pin-claim/pin-action.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { pageUrl } from '#app/utils/http.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await getUser({ request, context })
	const path = pageUrl(request).pathname
	// Signed in, only /auth keeps its own (welcome back) view; the others are the dashboard's aliases.
	if (user && path !== '/auth') throw redirect('/dashboard')
	return { user }
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await readPageForm(request)
	return pinAction({ request, context }, formData)
}

export default function Landing({ loaderData, actionData }: Route.ComponentProps) {
	if (loaderData.user) return <WelcomeBackView user={loaderData.user} />
	return <LandingView pinResult={actionData?.result} />
}

export const meta: Route.MetaFunction = () =>
	pageMeta('Sign in', { description: 'Emergency medical information on a QR code, free and donation-based.' })
