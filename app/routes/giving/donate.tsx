import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { startDonation } from '#app/domain/giving/donations.server.ts'
import { AMOUNT_MESSAGES, CUSTOM_TIER, DonateSchema, TIERS } from '#app/domain/giving/schemas.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { cardClass } from '#app/ui/card.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { env } from '#app/utils/env.server.ts'
import { combineHeaders } from '#app/utils/http.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { readPageForm, refusedAttempt } from '#app/utils/request.server.ts'
import { actionToast } from '#app/utils/toast.server.ts'
import { GivingUnavailable } from './giving-unavailable.tsx'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/donate'

// The form (conform, zod) loads after the page: until then it posts as a plain form.
const DonateForm = lazyComponent('donate-form', () => import('./donate-form.tsx').then((module) => module.DonateForm))

export async function loader({ request, context }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const asked = url.searchParams.get('tier') ?? ''
	const tier = [...TIERS.map((t) => t.id), CUSTOM_TIER].includes(asked) ? asked : 'advocate'
	return {
		enabled: paymentsEnabled(),
		inPage: paymentsEnabled() && Boolean(env.STRIPE_PUBLISHABLE_KEY),
		signedIn: Boolean(await getUser({ request, context })),
		tier,
		amount: tier === CUSTOM_TIER ? (url.searchParams.get('amount') ?? '').slice(0, 12) : '',
		supportEmail: env.SUPPORT_EMAIL,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: DonateSchema })
	const user = await getUser({ request, context })
	// Spec 002 §8: the tier page (signed in) and the guest page word a failure differently.
	const failure = (message?: string) =>
		user
			? AMOUNT_MESSAGES.tierError
			: { title: AMOUNT_MESSAGES.guestError.title, description: message ?? AMOUNT_MESSAGES.guestError.fallback }
	const fail = async (toast: { title: string; description: string }, status: number, result = submission.reply(), extra?: HeadersInit) => {
		const headers = await actionToast(request, context, { type: 'error', ...toast })
		return data({ result }, { status, headers: combineHeaders(headers, extra) })
	}
	if (submission.status !== 'success') {
		const message = submission.error?.customAmount?.[0] ?? AMOUNT_MESSAGES.invalid.description
		return fail(message === AMOUNT_MESSAGES.tooLarge.description ? AMOUNT_MESSAGES.tooLarge : AMOUNT_MESSAGES.invalid, 400)
	}
	if (!paymentsEnabled()) return fail(failure(UNAVAILABLE), 503, submission.reply({ formErrors: [UNAVAILABLE] }))
	const limited = await refusedAttempt('donate', request, context)
	if (limited) return fail(failure(TOO_MANY_ATTEMPTS), 429, submission.reply({ formErrors: [TOO_MANY_ATTEMPTS] }), limited)
	let checkout
	try {
		checkout = await startDonation(
			submission.value,
			{ userId: user?.id, email: user?.email },
			{
				successUrl: `${new URL('/donation-success', env.PUBLIC_URL)}?session_id={CHECKOUT_SESSION_ID}`,
				cancelUrl: `${new URL('/donate', env.PUBLIC_URL)}?tier=${submission.value.tier}`,
			},
		)
	} catch (error) {
		console.error('[donate] could not start a Checkout Session', error)
		const toast = failure()
		return fail(toast, 503, submission.reply({ formErrors: [toast.description] }))
	}
	return redirect(checkout.url, 303)
}

const UNAVAILABLE = 'Online giving is not set up on this server.'

export default function Donate({ loaderData, actionData }: Route.ComponentProps) {
	const { enabled, inPage, signedIn, tier, amount, supportEmail } = loaderData
	return (
		<PublicShell
			title="Support Our Mission"
			width="max-w-2xl"
			intro="Hit Me Helpers is free for everyone and runs on donations: every gift prints and mails QR codes and keeps the service online. Nothing is ever withheld from anyone who does not give."
		>
			<div className="space-y-6">
				<section aria-label="Donate" className={cardClass('p-6')}>
					{enabled ? (
						<DonateForm lastResult={actionData?.result} tier={tier} amount={amount} inPage={inPage} signedIn={signedIn} />
					) : (
						<GivingUnavailable supportEmail={supportEmail} />
					)}
				</section>
				{enabled ? (
					<p className="text-gray-700">
						You pay on Stripe&apos;s secure page; a receipt for your records follows by e-mail once the payment is confirmed.
					</p>
				) : null}
				<nav aria-label="More ways to help" className="flex flex-wrap gap-3">
					<Link to="/payment-options" className={buttonClass('secondary')}>
						Payment Options
					</Link>
					<Link to="/shop" className={buttonClass('secondary')}>
						Shop
					</Link>
					<Link to={signedIn ? '/dashboard' : '/'} className={buttonClass('secondary')}>
						{signedIn ? 'Dashboard' : 'Home'}
					</Link>
				</nav>
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () => [
	{ title: 'Donate · Hit Me Helpers' },
	{ name: 'description', content: 'Give once to the Hit Me Helpers Foundation: free emergency medical QR codes for everyone.' },
]
