import { Link } from 'react-router'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { pendingEmailChange } from '#app/domain/accounts/email-change.server.ts'
import { previousSignIn } from '#app/domain/accounts/sign-ins.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { pageUrl } from '#app/utils/http.ts'
import { formatEtTime } from '#app/utils/dates.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/profile'
import { profileAction } from './profile.server.ts'
import { PROFILE_INTENTS } from './intents.ts'
import { pageMeta } from '#app/utils/meta.ts'

// The page's forms (conform, zod) load after it: until then they post as plain forms.
const forms = () => import('./profile-forms.tsx')
const NameForm = lazyComponent('profile-name', () => forms().then((module) => module.NameForm))
const EmailForm = lazyComponent('profile-email', () => forms().then((module) => module.EmailForm))
const SessionsCard = lazyComponent('profile-sessions', () => forms().then((module) => module.SessionsCard))
const DangerZone = lazyComponent('profile-delete', () => forms().then((module) => module.DangerZone))

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireUser({ request, context })
	const url = pageUrl(request)
	const session = await getSession({ request, context })
	const [pending, last] = await Promise.all([pendingEmailChange(user.id), previousSignIn(user.id, session.get('signInId'))])
	return {
		user,
		// Told as text from here, so the server's HTML and the browser's render say the same.
		pendingEmail: pending ? { email: pending.email, until: formatEtTime(pending.expiresAt) } : null,
		lastSignIn: last ? `Last sign-in: ${formatEtTime(last.at)} from ${last.from}` : null,
		editingEmail: url.searchParams.get('edit') === 'email',
		confirmingDeletion: url.searchParams.get('dialog') === 'delete-account',
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	return profileAction(request, context)
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
	const { user, pendingEmail, lastSignIn, editingEmail, confirmingDeletion } = loaderData
	const failed = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined)
	const emailResult = failed(PROFILE_INTENTS.changeEmail)
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
			<h1 className="text-2xl font-bold">Profile</h1>
			<NameForm user={user} lastResult={failed(PROFILE_INTENTS.updateName)} />
			<EmailForm email={user.email} pending={pendingEmail} editing={editingEmail || Boolean(emailResult)} lastResult={emailResult} />
			<section aria-labelledby="giving-title" className={cardClass('p-6')}>
				<h2 id="giving-title" className="text-xl font-bold">
					Your Giving
				</h2>
				<p className="mt-2 text-gray-800">Your donations with their receipts, and a year-end statement for your tax records.</p>
				<Link to="/dashboard/giving" className={buttonClass('secondary', 'mt-3')}>
					See Your Giving
				</Link>
			</section>
			<section aria-labelledby="access-title" className={cardClass('p-6')}>
				<h2 id="access-title" className="text-xl font-bold">
					Who Has Seen Your Information
				</h2>
				<p className="mt-2 text-gray-800">Every scan that showed one of your profiles, and every change made to them.</p>
				<Link to="/dashboard/profile/access-record" className={buttonClass('secondary', 'mt-3')}>
					See the Access Record
				</Link>
			</section>
			<SessionsCard lastSignIn={lastSignIn} />
			<DangerZone confirming={confirmingDeletion} />
		</main>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Profile')
