import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, redirect, data } from 'react-router'
import { markAdminToken, ownerAccess, presentAdminToken } from '#app/middleware/owner.server.ts'
import { OWNER_ONLY } from '#app/domain/admin/messages.ts'
import { INVALID_ADMIN_TOKEN, OwnerTokenSchema } from '#app/domain/admin/schemas.ts'
import { Field, StatusButton, buttonClass } from '#app/ui/forms.tsx'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { loginPath } from '#app/utils/auth.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import type { Route } from './+types/owner-panel'
import { pageMeta } from '#app/utils/meta.ts'

/**
 * Spec 002's gate. Signed out: sign in, then back. The owner, or a session whose token is valid, is welcomed and sent on
 * to /admin (or to the second factor first); anyone else sees Access Denied. A token in the address is only checked
 * here: the session is marked when the person confirms with the form (no state change on GET).
 */
export async function loader(args: Route.LoaderArgs) {
	const access = await ownerAccess(args)
	if (access.kind === 'visitor') throw redirect(loginPath(args.request))
	const token = new URL(args.request.url).searchParams.get('token')
	const checked = token ? await presentAdminToken(args, access.user.id, token) : null
	const page = {
		welcome: access.kind !== 'denied' || checked?.valid === true,
		token: checked?.valid ? token : null,
		tokenRefused: checked?.valid === false ? (checked.retryAfterSeconds ? TOO_MANY_ATTEMPTS : INVALID_ADMIN_TOKEN) : null,
		next: nextStep(access.kind),
	}
	if (!checked?.retryAfterSeconds) return page
	return data(page, { status: 429, headers: { 'retry-after': String(checked.retryAfterSeconds) } })
}

function nextStep(kind: string) {
	if (kind === 'enrol') return { to: '/owner-panel/two-factor', label: 'Set Up Two-Factor Sign-In' }
	if (kind === 'verify') return { to: '/owner-panel/two-factor', label: 'Enter Your Sign-In Code' }
	return { to: '/admin', label: 'Open the Admin Dashboard' }
}

export async function action(args: Route.ActionArgs) {
	const access = await ownerAccess(args)
	if (access.kind === 'visitor') throw redirect(loginPath(args.request))
	const { request } = args
	const submission = parseWithZod(await readPageForm(request), { schema: OwnerTokenSchema })
	// The token is never sent back: the form comes back empty, with the reason beside it.
	const options = { field: 'token', hideFields: ['token'] }
	if (submission.status !== 'success') return replyError(args, submission, new DomainError(400, INVALID_ADMIN_TOKEN), options)
	const checked = await presentAdminToken(args, access.user.id, submission.value.token)
	if (checked.retryAfterSeconds)
		return replyError(args, submission, new DomainError(429, TOO_MANY_ATTEMPTS, undefined, checked.retryAfterSeconds), options)
	if (!checked.valid) return replyError(args, submission, new DomainError(400, INVALID_ADMIN_TOKEN), options)
	const session = await getSession(args)
	markAdminToken(session, access.user.id)
	return redirect('/admin', { headers: { 'set-cookie': await sessionStorage.commitSession(session) } })
}

export default function OwnerPanel({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useIsPending()
	if (loaderData.welcome && !loaderData.token)
		return (
			<AuthShell title="Welcome to the owner panel" subtitle="Orders, sticker batches, requests and the foundation's records.">
				<Link to={loaderData.next.to} className={buttonClass('primary', 'w-full')}>
					{loaderData.next.label}
				</Link>
			</AuthShell>
		)
	const error = actionData?.result.error?.token?.[0] ?? loaderData.tokenRefused ?? undefined
	return (
		<AuthShell
			title={loaderData.token ? 'Welcome to the owner panel' : 'Access Denied'}
			subtitle={loaderData.token ? undefined : OWNER_ONLY}
		>
			<Form method="post" className="space-y-4">
				<Field
					label="Admin token"
					errors={[error]}
					inputProps={{
						name: 'token',
						type: 'password',
						autoComplete: 'off',
						required: true,
						maxLength: 512,
						defaultValue: loaderData.token ?? undefined,
					}}
				/>
				<StatusButton type="submit" pending={pending} pendingLabel="Checking…" className="w-full">
					{loaderData.token ? 'Open the Admin Dashboard' : 'Admin Access'}
				</StatusButton>
			</Form>
			<Link to="/" className={buttonClass('secondary', 'mt-4 w-full')}>
				Return to Home
			</Link>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Owner panel')
