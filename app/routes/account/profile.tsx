import { Link } from 'react-router'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { pageUrl } from '#app/utils/http.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/profile'
import { profileAction } from './profile.server.ts'
import { PROFILE_INTENTS } from './intents.ts'

// The page's forms (conform, zod) load after it: until then they post as plain forms.
const forms = () => import('./profile-forms.tsx')
const NameForm = lazyComponent('profile-name', () => forms().then((module) => module.NameForm))
const EmailForm = lazyComponent('profile-email', () => forms().then((module) => module.EmailForm))
const SignOutCard = lazyComponent('profile-sign-out', () => forms().then((module) => module.SignOutCard))
const DangerZone = lazyComponent('profile-delete', () => forms().then((module) => module.DangerZone))

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireUser({ request, context })
	const url = pageUrl(request)
	return {
		user,
		editingEmail: url.searchParams.get('edit') === 'email',
		confirmingDeletion: url.searchParams.get('dialog') === 'delete-account',
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	return profileAction(request, context)
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
	const { user, editingEmail, confirmingDeletion } = loaderData
	const failed = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined)
	const emailResult = failed(PROFILE_INTENTS.changeEmail)
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
			<h1 className="text-2xl font-bold">Profile</h1>
			<NameForm user={user} lastResult={failed(PROFILE_INTENTS.updateName)} />
			<EmailForm email={user.email} editing={editingEmail || Boolean(emailResult)} lastResult={emailResult} />
			<section aria-labelledby="giving-title" className={cardClass('p-6')}>
				<h2 id="giving-title" className="text-xl font-bold">
					Your Giving
				</h2>
				<p className="mt-2 text-gray-800">Your donations with their receipts, and a year-end statement for your tax records.</p>
				<Link to="/dashboard/giving" className={buttonClass('secondary', 'mt-3')}>
					See Your Giving
				</Link>
			</section>
			<SignOutCard />
			<DangerZone confirming={confirmingDeletion} />
		</main>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Profile · Hit Me Helpers' }]
