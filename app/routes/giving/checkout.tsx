import { Link, redirect } from 'react-router'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { dollarsToCents, formatDollars } from '#app/domain/giving/amounts.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { env } from '#app/utils/env.server.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { GivingUnavailable } from '../../ui/giving-unavailable.tsx'
import type { Route } from './+types/checkout'
import { pageMeta } from '#app/utils/meta.ts'

// Stripe's script loads on this page alone, after it: no other page carries it.
const PaymentForm = lazyComponent('payment-form', () => import('./payment-form.tsx').then((module) => module.PaymentForm))

const CLIENT_SECRET = /^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/

/** /checkout?client_secret&amount (spec 002): the in-page card form for a PaymentIntent; without both, /donate. */
export async function loader({ request }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const clientSecret = params.get('client_secret') ?? ''
	const cents = dollarsToCents(params.get('amount') ?? '')
	if (!CLIENT_SECRET.test(clientSecret) || cents === null) throw redirect('/donate')
	const inPage = paymentsEnabled() && Boolean(env.STRIPE_PUBLISHABLE_KEY)
	return {
		amount: formatDollars(cents),
		payment: inPage ? { clientSecret, publishableKey: env.STRIPE_PUBLISHABLE_KEY! } : null,
		supportEmail: env.SUPPORT_EMAIL,
	}
}

export default function Checkout({ loaderData: { amount, payment, supportEmail } }: Route.ComponentProps) {
	const hydrated = useHydrated()
	return (
		<PublicShell title="Complete Your Donation" width="max-w-xl" intro={`Your gift: ${amount}`}>
			<div className={cardClass('space-y-4 p-6')}>
				{!payment ? (
					<GivingUnavailable supportEmail={supportEmail} />
				) : hydrated ? (
					<PaymentForm clientSecret={payment.clientSecret} publishableKey={payment.publishableKey} />
				) : (
					<p className="text-gray-800">
						This card form needs JavaScript. Without it, give on the donate page, which takes you to Stripe&apos;s own secure page.
					</p>
				)}
				<Link to="/donate" className={buttonClass('secondary')}>
					Back to Donate
				</Link>
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Complete Your Donation', { noindex: true })
