import { Link } from 'react-router'
import { IMPORT_TITLE } from '#app/domain/sharing/options.ts'
import type { DashboardHandle } from '#app/ui/dashboard-chrome.ts'
import { pageMeta } from '#app/utils/meta.ts'
import type { Route } from './+types/import'
import { ImportForm, ImportReview } from './import-lazy.ts'
import { importAction, importLoader } from './import.server.ts'
import { screenHref } from './intents.ts'

// "Fill from a health summary": read an International Patient Summary (a file, or a SMART Health Link of this app),
// review what it would add beside what the profile holds, and add the items ticked. Plain forms; the review is the
// reading form's answer, and the confirmation carries the summary back to be read again.

export async function loader(args: Route.LoaderArgs) {
	return importLoader(args)
}

export async function action(args: Route.ActionArgs) {
	return importAction(args)
}

export default function ImportPage({ loaderData, actionData }: Route.ComponentProps) {
	const { profile } = loaderData
	const review = actionData && 'review' in actionData ? actionData.review : null
	// A refusal's answer (the review's own comes back with the review).
	const result = actionData && 'result' in actionData ? actionData.result : undefined
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-5 px-4 py-8">
			<p>
				<Link to={screenHref('/medical-info', { profile: profile?.id })} className="font-semibold text-blue-800 underline">
					Back to Medical Information
				</Link>
			</p>
			<h1 className="text-2xl font-bold">{IMPORT_TITLE}</h1>
			{!profile ? (
				<p className="text-gray-700">Please save your medical profile first.</p>
			) : review ? (
				<ImportReview key={review.carried.length} profile={profile} review={review} lastResult={result} />
			) : (
				<>
					<p className="text-gray-800">
						Add the allergies, medications, medical conditions and DNR status of a health summary to this profile. You see what it holds
						beside what the profile has, and choose what to add; nothing is saved before that.
					</p>
					<p className="text-gray-800">
						<span className="font-semibold">Profile:</span> {profile.name}
					</p>
					<ImportForm profileId={profile.id} lastResult={result} />
				</>
			)}
		</main>
	)
}

export const handle: DashboardHandle = { chrome: 'header' }

export const meta: Route.MetaFunction = () => pageMeta(IMPORT_TITLE)
