import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import { PinSchema } from '#app/domain/accounts/schemas.ts'
import { claimCode, pinStateFor } from '#app/domain/claims/claims.server.ts'
import { PIN_REJECTED } from '#app/domain/claims/schemas.ts'
import { pinLookupRefused } from '#app/domain/claims/rate-limit.server.ts'
import { listProfiles } from '#app/domain/profiles/profiles.server.ts'
import { profileLabel } from '#app/domain/profiles/profile-label.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { getClientIp, readPageForm } from '#app/utils/request.server.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { buttonClass, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { clearPendingPin } from '#app/utils/auth.server.ts'
import { getUserId } from '#app/middleware/user.server.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import type { Route } from './+types/claim'
import { CLAIM_FAILED, CLAIMED_TOAST } from '../../features/pin-claim/claim-toast.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** Whose profile the code will show: one of theirs, or (no choice, 'own', or anything else) their own. */
const ClaimFormSchema = z.object({ profileId: IdSchema.optional().catch(undefined) })

type ClaimState = 'unauthenticated' | 'ready' | 'success' | 'error'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const parsed = PinSchema.safeParse({ pin: params.pin })
	const pin = parsed.success ? parsed.data.pin : params.pin.toUpperCase()
	const userId = await getUserId({ request, context })
	if (!userId) return { state: 'unauthenticated' as ClaimState, pin, autoClaim: false, profiles: [] }
	if (!parsed.success) return { state: 'error' as ClaimState, pin, autoClaim: false, profiles: [] }
	const retryAfter = await pinLookupRefused({ userId, address: getClientIp(request, context) })
	if (retryAfter) throw data(TOO_MANY_ATTEMPTS, { status: 429, headers: { 'retry-after': String(retryAfter) } })
	const state: ClaimState = await pinStateFor(userId, pin)
	const session = await getSession({ request, context })
	const profiles = state === 'ready' ? await listProfiles(userId) : []
	return { state, pin, autoClaim: state === 'ready' && session.get('pendingPin') === pin, profiles }
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const userId = await requireUserId({ request, context })
	const submission = parseWithZod(await readPageForm(request), { schema: ClaimFormSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	// Without a choice (or with 'own'), the code shows the person's own profile, created when they have none yet.
	const { profileId } = submission.value
	try {
		await claimCode({ userId, address: getClientIp(request, context) }, params.pin, profileId ? { profileId } : undefined)
	} catch (error) {
		return replyError({ request, context }, submission, error, { toast: CLAIM_FAILED })
	}
	const cookie = await clearPendingPin({ request, context })
	return redirectWithToast(`/claim/${params.pin.toUpperCase()}`, CLAIMED_TOAST, {
		headers: cookie ? { 'set-cookie': cookie } : undefined,
	})
}

export default function Claim({ loaderData, actionData }: Route.ComponentProps) {
	const { pin, autoClaim, profiles } = loaderData
	// A refused claim: its message, wherever the refusal put it.
	const refusal = Object.values(actionData?.result.error ?? {})
		.flat()
		.find(Boolean)
	const state: ClaimState = refusal ? 'error' : loaderData.state
	return (
		<AuthShell title="Claim your QR code" subtitle={`PIN ${pin}`}>
			{state === 'unauthenticated' ? (
				<div className="space-y-4">
					<p className="text-gray-800">Sign in or create an account to claim this QR code.</p>
					<Form method="post" action="/auth">
						<input type="hidden" name="pin" value={pin} />
						<StatusButton type="submit" name="intent" value={PIN_INTENT} className="w-full">
							Sign in to claim
						</StatusButton>
					</Form>
					<Link to="/signup" className={buttonClass('secondary', 'w-full')}>
						Create an account
					</Link>
				</div>
			) : state === 'ready' ? (
				<ClaimForm auto={autoClaim} profiles={profiles} />
			) : state === 'success' ? (
				<div className="space-y-4">
					<p className="text-lg font-semibold text-green-800">This QR code is linked to your account.</p>
					<Link to="/dashboard" className={buttonClass('primary', 'w-full')}>
						Go to your dashboard
					</Link>
				</div>
			) : (
				<div className="space-y-4" role="alert">
					<p className="text-lg font-semibold text-red-800">Claim Failed</p>
					<p className="text-gray-800">{refusal ?? PIN_REJECTED}</p>
					<Link to="/dashboard" className={buttonClass('secondary', 'w-full')}>
						Go to your dashboard
					</Link>
				</div>
			)}
		</AuthShell>
	)
}

/** A PIN validated just before sign-in is claimed at once when JavaScript runs; otherwise one press. */
function ClaimForm({
	auto,
	profiles,
}: {
	auto: boolean
	profiles: Array<{ id: number; fullName: string | null; relationshipToUser: string }>
}) {
	const own = profiles.find((p) => p.relationshipToUser === 'self')
	const formRef = useRef<HTMLFormElement>(null)
	const pending = useIsPending()
	const hydrated = useHydrated()
	useEffect(() => {
		if (auto) formRef.current?.requestSubmit()
	}, [auto])
	return (
		<Form method="post" ref={formRef} className="space-y-4">
			<OfflineMessage title="Claim Failed" description="Failed to claim QR code" />
			<p className="text-gray-800">This QR code is ready to be linked to your account.</p>
			{profiles.length ? (
				<SelectField
					label="Whose information will this code show?"
					selectProps={{ name: 'profileId', defaultValue: own ? String(own.id) : 'own' }}
					options={[
						...(own ? [] : [{ value: 'own', label: 'Yourself (a new profile)' }]),
						...profiles.map((p) => ({ value: String(p.id), label: profileLabel(p) })),
					]}
				/>
			) : (
				<p className="text-gray-700">It will show your own medical profile, which you can fill in next.</p>
			)}
			<StatusButton type="submit" className="w-full" pending={pending || (auto && hydrated)} pendingLabel="Claiming...">
				Claim QR Code
			</StatusButton>
		</Form>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Claim your QR code')
