import { data, Form, Link, redirect } from 'react-router'
import { confirmWithReviewLink, reviewLinkState } from '#app/domain/reviews/reviews.server.ts'
import { REVIEW_LINK_DAYS } from '#app/domain/reviews/schedule.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { StatusButton } from '#app/ui/forms.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import type { Route } from './+types/review-link'
import { pageMeta } from '#app/utils/meta.ts'

/**
 * A review reminder's "Still correct" link: GET asks (a mail scanner or link preview confirms nothing), one POST
 * confirms, without signing in. The page names the profile and its dates, never its medical facts.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
	const link = await reviewLinkState(params.token.slice(0, 100))
	const justConfirmed = new URL(request.url).searchParams.get('confirmed') === '1'
	return data({ link, justConfirmed }, { status: link.state === 'unknown' ? 404 : 200 })
}

export async function action({ params }: Route.ActionArgs) {
	const token = params.token.slice(0, 100)
	const result = await confirmWithReviewLink(token)
	if (result.state === 'confirmed') return redirect(`/review/${encodeURIComponent(token)}?confirmed=1`, 303)
	return data({ refused: true }, { status: result.state === 'unknown' ? 404 : 410 })
}

export default function ReviewLink({ loaderData }: Route.ComponentProps) {
	const { link, justConfirmed } = loaderData
	const pending = useIsPending()
	const name = 'profileName' in link && link.profileName ? link.profileName : 'this profile'
	const signIn = (
		<p className="mt-6">
			<Link to="/medical-info" className="font-semibold text-blue-800 underline">
				Sign in to review it
			</Link>
		</p>
	)
	if (link.state === 'used')
		return justConfirmed ? (
			<AuthShell title="Thank you" subtitle={`${name}'s information is confirmed as correct.`}>
				<p className="text-gray-800">Responders who scan the code now see that it was last confirmed today. You can close this page.</p>
			</AuthShell>
		) : (
			<AuthShell title="This link has been used" subtitle={`${name}'s information was already confirmed with it.`}>
				<p className="text-gray-800">Each link confirms once. To confirm again, or to change something, sign in.</p>
				{signIn}
			</AuthShell>
		)
	if (link.state !== 'valid')
		return (
			<AuthShell title={link.state === 'expired' ? 'This link has expired' : 'This link cannot be used'}>
				<p className="text-gray-800">
					{link.state === 'expired'
						? `A reminder's link works for ${REVIEW_LINK_DAYS} days. Sign in to confirm ${name}'s information or change it.`
						: 'Use the link from your most recent reminder, or sign in to review your information.'}
				</p>
				{signIn}
			</AuthShell>
		)
	return (
		<AuthShell title={`Is ${name}'s information still correct?`} subtitle={`Last confirmed on ${formatDate(link.confirmedOn)}.`}>
			<p className="text-gray-800">
				Confirm only if everything in the reminder is still right: responders will see today as the date it was last confirmed.
			</p>
			<Form method="post" className="mt-5">
				<StatusButton type="submit" pending={pending} pendingLabel="Confirming…" className="w-full">
					Yes, Still Correct
				</StatusButton>
			</Form>
			<p className="mt-5">
				<Link to="/medical-info" className="font-semibold text-blue-800 underline">
					Something changed? Sign in to update it
				</Link>
			</p>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Review your information', { noindex: true })
