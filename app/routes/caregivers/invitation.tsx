import { data, Form, href, Link } from 'react-router'
import { DomainError } from '#app/utils/errors.ts'
import { acceptInvitation, findInvitation } from '#app/domain/profiles/caregivers.server.ts'
import { CAREGIVER_MESSAGES, CAREGIVER_ROLE_NAMES, CLOSED_INVITATION } from '#app/domain/profiles/caregiver-labels.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { loginPath } from '#app/utils/auth.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { SignOutForm } from '#app/ui/sign-out-form.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { pageMeta } from '#app/utils/meta.ts'
import type { Route } from './+types/invitation'

const tokenOf = (params: { token: string }) => params.token.slice(0, 100)

/**
 * A caregiver invitation's link: GET says what it is for (a mail scanner or link preview accepts nothing); signed in
 * with the invited address, one POST accepts it. Signed out, sign-in comes back here.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const [invitation, user] = await Promise.all([findInvitation(tokenOf(params)), getUser({ request, context })])
	const signedInAs = user ? user.email.toLowerCase() : null
	return data(
		{ invitation, signedInAs, signInHref: loginPath(request) },
		{ status: invitation.state === 'unknown' ? 404 : 200, headers: { 'cache-control': 'private, no-store' } },
	)
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const userId = await requireUserId({ request, context })
	try {
		const accepted = await acceptInvitation(tokenOf(params), userId)
		return await redirectWithToast(`${href('/medical-info')}?profile=${accepted.profileId}`, {
			type: 'success',
			title: 'Invitation Accepted',
			description: `You now help keep this profile as ${accepted.role === 'editor' ? 'an editor' : 'a viewer'}${accepted.ownerName ? `, shared by ${accepted.ownerName}` : ''}.`,
		})
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return data({ message: error.message }, { status: error.status })
	}
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
	const { invitation, signedInAs, signInHref } = loaderData
	const pending = useIsPending()
	if (invitation.state !== 'open')
		return (
			<AuthShell title="This invitation cannot be used">
				<p role="alert" className="text-gray-800">
					{CLOSED_INVITATION[invitation.state]}
				</p>
				<p className="mt-6">
					<Link to="/dashboard" className="font-semibold text-blue-800 underline">
						Go to your dashboard
					</Link>
				</p>
			</AuthShell>
		)
	const whose = invitation.profileName ? `${invitation.profileName}'s medical profile` : 'a medical profile'
	const role = CAREGIVER_ROLE_NAMES[invitation.role]
	const subtitle = `${invitation.ownerName ?? 'Its owner'} invited ${invitation.email} to help keep ${whose} as ${role.toLowerCase()}.`
	return (
		<AuthShell title="Help keep a medical profile" subtitle={subtitle}>
			<p className="text-gray-800">
				{invitation.role === 'editor'
					? 'As an editor you can read and change its medical information and see its scan history; you also get its alerts.'
					: 'As a viewer you can read its medical information and get its alerts.'}{' '}
				The invitation works until {formatDate(invitation.expiresAt)}, once.
			</p>
			{!signedInAs ? (
				<div className="mt-5 space-y-3">
					<p className="text-gray-800">Sign in with {invitation.email} to accept. You come back to this page afterwards.</p>
					<Link to={signInHref} className="inline-block rounded-lg bg-red-700 px-4 py-2 font-semibold text-white">
						Sign In to Accept
					</Link>
					<p className="text-gray-800">
						No account yet?{' '}
						<Link to="/signup" className="font-semibold text-blue-800 underline">
							Create one with {invitation.email}
						</Link>
						, then open the link in the e-mail again.
					</p>
				</div>
			) : signedInAs !== invitation.email ? (
				<div className="mt-5 space-y-3">
					<p role="alert" className="font-semibold text-red-800">
						{CAREGIVER_MESSAGES.otherAccount(invitation.email)} You are signed in as {signedInAs}.
					</p>
					<SignOutForm switchAccount>
						<StatusButton variant="secondary">Sign Out</StatusButton>
					</SignOutForm>
				</div>
			) : (
				<Form method="post" className="mt-5 space-y-3">
					<ErrorList id="invitation-error" errors={actionData ? [actionData.message] : undefined} alert />
					<StatusButton type="submit" pending={pending} pendingLabel="Accepting…" className="w-full">
						Accept Invitation
					</StatusButton>
				</Form>
			)}
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Caregiver invitation', { noindex: true })
