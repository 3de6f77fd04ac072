import type { RequestArgs } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import { linkOidcIdentity } from '#app/domain/accounts/accounts.server.ts'
import { LinkAccountSchema } from '#app/domain/accounts/schemas.ts'
import { createUserSession } from '#app/routes/auth/sign-in.server.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { env } from '#app/utils/env.server.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import { guessSource, trustDevice } from '#app/utils/trusted-device.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { limitPageAttempt, readPageForm } from '#app/utils/request.server.ts'
import { getSession, type PendingLink } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/link'
import { pageMeta } from '#app/utils/meta.ts'

const LinkForm = lazyComponent('link-form', () => import('./link-form.tsx').then((module) => module.LinkForm))

/** How long a provider's sign-in waits for the password that links it. */
const LINK_MINUTES = 15

/** The provider's sign-in this browser is linking, or on to sign-in again when there is none (or it is stale). */
async function requirePendingLink(args: RequestArgs): Promise<PendingLink> {
	if (!env.oidcEnabled) throw redirect('/login')
	const pending = (await getSession(args)).get('pendingLink')
	if (pending && Date.now() - pending.at < LINK_MINUTES * 60 * 1000) return pending
	throw await redirectWithToast('/auth', {
		type: 'error',
		title: 'Sign-in failed',
		description: 'Your sign-in to link has expired. Please sign in again.',
	})
}

export async function loader(args: Route.LoaderArgs) {
	const pending = await requirePendingLink(args)
	const { email, hasPassword, providerVerified, accountVerified } = pending
	return { email, hasPassword, providerVerified, accountVerified, supportEmail: env.SUPPORT_EMAIL }
}

export async function action({ request, context }: Route.ActionArgs) {
	const pending = await requirePendingLink({ request, context })
	const submission = parseWithZod(await readPageForm(request), { schema: LinkAccountSchema })
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
	const { at: _at, hasPassword: _has, providerVerified: _pv, accountVerified: _av, ...identity } = pending
	let userId: string
	try {
		await limitPageAttempt('signin', request, context)
		const source = await guessSource({ request, context }, 'signin', identity.email)
		userId = (await linkOidcIdentity(identity, submission.value.password, source)).id
	} catch (error) {
		return replyError({ request, context }, submission, error, { hideFields: ['password'] })
	}
	const trusted = { 'set-cookie': await trustDevice(request, 'signin', identity.email) }
	return createUserSession({ request, context }, userId, null, { headers: trusted })
}

function reason({ providerVerified, accountVerified }: { providerVerified: boolean; accountVerified: boolean }) {
	if (!providerVerified && !accountVerified) return 'neither has'
	if (!providerVerified) return 'your sign-in provider has not'
	return 'this account’s address has not been confirmed here yet'
}

export default function LinkAccount({ loaderData, actionData }: Route.ComponentProps) {
	const { email, hasPassword, supportEmail } = loaderData
	return (
		<AuthShell title="Link your sign-in">
			<div className="mt-3 space-y-3 text-gray-800">
				<p>
					An account with <span className="font-semibold">{email}</span> already exists here. We link a sign-in to an existing account by
					e-mail only when both your sign-in provider and this site have confirmed the address, and {reason(loaderData)}.
				</p>
				{hasPassword ? (
					<p>If this account is yours, enter its password to link them. After that you sign in through your provider as usual.</p>
				) : (
					<p>
						This account has no password to confirm that it is yours, so it cannot be linked here. Write to us at{' '}
						<a href={`mailto:${supportEmail}`} className="font-semibold text-blue-800 underline">
							{supportEmail}
						</a>{' '}
						and we will help.
					</p>
				)}
			</div>
			{hasPassword ? (
				<div className="mt-6">
					<LinkForm lastResult={actionData?.result} />
				</div>
			) : null}
			<p className="mt-6 text-center text-sm">
				<Link to="/auth" className="text-blue-800 underline">
					Back to sign-in
				</Link>
			</p>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Link your sign-in', { noindex: true })
