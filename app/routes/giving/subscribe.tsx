import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, redirect } from 'react-router'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { formatDollars, grossToCoverFees, planById, PLANS } from '#app/domain/giving/amounts.ts'
import { feeText, STANDARD_FEE } from '#app/domain/giving/payment-methods.ts'
import { startSubscription } from '#app/domain/giving/donations.server.ts'
import { PLAN_REQUIRED, SubscribeSchema } from '#app/domain/giving/schemas.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass, CheckboxField, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { env } from '#app/utils/env.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { limitPageAttempt, readPageForm } from '#app/utils/request.server.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { LandingView } from '../../features/landing/landing-view.tsx'
import { GivingUnavailable } from '../../ui/giving-unavailable.tsx'
import { GIVING_UNAVAILABLE } from './giving-page.server.ts'
import type { Route } from './+types/subscribe'
import { log } from '#app/utils/log.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

const FAILED = 'Failed to process donation. Please try again.'

/**
 * /subscribe?plan=: a monthly gift for a signed-in donor. Signed out it is the sign-in page (spec 000's route table),
 * unless giving is not set up: that is said to everyone, as signing in would not change it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const signedIn = Boolean(await getUser({ request, context }))
	return { signedIn, plan: planById(url.searchParams.get('plan'))?.id ?? null, enabled: paymentsEnabled(), supportEmail: env.SUPPORT_EMAIL }
}

export async function action(args: Route.ActionArgs) {
	const { request, context } = args
	const user = await getUser(args)
	const submission = parseWithZod(await readPageForm(request), { schema: SubscribeSchema })
	try {
		// A post that is no gift at all is a 400 whether or not giving is set up.
		if (submission.status !== 'success') throw new DomainError(400, PLAN_REQUIRED, 'plan')
		// Said before sign-in is asked for: signing in would not make giving possible.
		if (!paymentsEnabled()) throw new DomainError(503, GIVING_UNAVAILABLE)
		if (!user) throw redirect('/login?redirectTo=/pricing')
		await limitPageAttempt('donate', request, context)
		const checkout = await startSubscription(
			submission.value.plan,
			submission.value.coverFees,
			{ userId: user.id, email: user.email },
			{
				successUrl: new URL('/dashboard?subscribed=true', env.PUBLIC_URL).toString(),
				cancelUrl: new URL('/pricing', env.PUBLIC_URL).toString(),
			},
		).catch((error: unknown) => {
			log.error({ err: error }, 'monthly gift Checkout Session not started')
			throw new DomainError(503, FAILED)
		})
		return redirect(checkout.url, 303)
	} catch (error) {
		return replyError(args, submission, error, { toast: 'Error' })
	}
}

export default function Subscribe({ loaderData: { signedIn, plan: planId, enabled, supportEmail }, actionData }: Route.ComponentProps) {
	const plan = planById(planId)
	// The plan is a hidden field: its refusal is said with the form's own.
	const refusal = actionData?.result.error
	const errors = [...(refusal?.[''] ?? []), ...(refusal?.plan ?? [])]
	const pending = useIsPending()
	if (!signedIn && enabled) return <LandingView />
	return (
		<PublicShell title="Give Monthly" width="max-w-2xl">
			<div className={cardClass('space-y-4 p-6')}>
				{!enabled ? (
					<GivingUnavailable supportEmail={supportEmail} />
				) : plan ? (
					<Form method="post" className="space-y-4">
						<input type="hidden" name="plan" value={plan.id} />
						<h2 className="text-xl font-bold text-gray-900">
							{plan.name}: {formatDollars(plan.cents)} a month
						</h2>
						<p className="text-gray-800">{plan.description}</p>
						<p className="text-gray-700">
							You pay on Stripe&apos;s secure page; each month&apos;s receipt follows by e-mail, and you can change or cancel the gift at
							any time from Your Giving.
						</p>
						<CheckboxField
							label={`Add the card fee (${feeText(STANDARD_FEE)}): ${formatDollars(grossToCoverFees(plan.cents))} a month, so the whole gift reaches the foundation`}
							inputProps={{ name: 'coverFees', id: 'cover-fees' }}
						/>
						<ErrorList errors={errors.length ? errors : undefined} alert />
						<StatusButton type="submit" pending={pending} pendingLabel="Redirecting...">
							Start Monthly Gift
						</StatusButton>
					</Form>
				) : (
					<p className="text-gray-800">Choose a plan first.</p>
				)}
				{enabled ? (
					<nav aria-label="Other plans" className="flex flex-wrap gap-2">
						{PLANS.filter((other) => other.id !== plan?.id).map((other) => (
							<Link key={other.id} to={`/subscribe?plan=${other.id}`} className={buttonClass('secondary')}>
								{other.name}, {formatDollars(other.cents)} a month
							</Link>
						))}
					</nav>
				) : null}
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Give Monthly')
