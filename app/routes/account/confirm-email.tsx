import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { confirmEmailChange, findEmailChange } from '#app/domain/accounts/email-change.server.ts'
import { LINK_NOT_VALID } from '#app/domain/accounts/messages.ts'
import { ConfirmEmailChangeSchema } from '#app/domain/accounts/schemas.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { readPageForm } from '#app/utils/request.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/confirm-email'
import { pageMeta } from '#app/utils/meta.ts'

const ConfirmEmailForm = lazyComponent('confirm-email-form', () =>
	import('./confirm-email-form.tsx').then((module) => module.ConfirmEmailForm),
)

/** The link sent to a new address: GET asks (a link preview changes nothing), POST makes the address the account's. */
export async function loader({ request }: Route.LoaderArgs) {
	const token = (new URL(request.url).searchParams.get('token') ?? '').slice(0, 200)
	const change = await findEmailChange(token)
	if (!change) return data({ token: '', email: null }, { status: 404 })
	return { token, email: change.email }
}

export async function action({ request, context }: Route.ActionArgs) {
	const submission = parseWithZod(await readPageForm(request), { schema: ConfirmEmailChangeSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { token, endOtherSessions } = submission.value
	const session = await getSession({ request, context })
	const change = await findEmailChange(token)
	// The session opening the link stays signed in when it is the account's own; any other is not the account's to keep.
	const ownSession = change && session.get('userId') === change.userId ? session.id : null
	let confirmed: Awaited<ReturnType<typeof confirmEmailChange>>
	try {
		confirmed = await confirmEmailChange(token, { endOtherSessions, keepSessionId: ownSession })
	} catch (error) {
		// A spent or unknown link is told on this page (with the way to ask for a new one), not as a missing page.
		return replyError({ request, context }, submission, error, { statuses: { 404: 404 } })
	}
	const ended = endOtherSessions ? ' Every other session of your account has been signed out.' : ''
	return redirectWithToast(ownSession ? '/dashboard/profile' : '/auth', {
		type: 'success',
		title: 'Email Updated',
		description: `Your email is now ${confirmed.email}.${ended}`,
	})
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
	// Why opening the link was refused: the form's own error (a field's error is a broken form, told as the default).
	const refusal = actionData?.result.error?.['']?.[0]
	if (!loaderData.email)
		return (
			<AuthShell title="This link cannot be used">
				<p role={refusal ? 'alert' : undefined} className="mt-3 text-gray-800">
					{refusal ?? LINK_NOT_VALID}
				</p>
				<p className="mt-6">
					<Link to="/dashboard/profile" className="font-semibold text-blue-800 underline">
						Go to your Profile
					</Link>
				</p>
			</AuthShell>
		)
	return (
		<AuthShell title="Confirm your new email">
			<p className="mt-3 text-gray-800">
				Use <span className="font-semibold">{loaderData.email}</span> as the email address of your Hit Me Helpers account? Your account
				keeps its current address until you confirm.
			</p>
			<ConfirmEmailForm token={loaderData.token} lastResult={actionData?.result} />
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Confirm your new email', { noindex: true })
