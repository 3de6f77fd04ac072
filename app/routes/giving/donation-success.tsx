import { Link } from 'react-router'
import { donationFor } from '#app/domain/giving/donations.server.ts'
import { formatDollars } from '#app/domain/giving/amounts.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { cardClass } from '#app/ui/card.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import type { Route } from './+types/donation-success'
import { pageMeta } from '#app/utils/meta.ts'

/**
 * Where Stripe sends the donor back. Coming back proves nothing: the gift shows as confirmed only once Stripe's
 * signed webhook has recorded it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	// Stripe's Checkout returns with session_id; the in-page form (/checkout) with payment_intent.
	const sessionId = params.get('session_id') ?? ''
	const intentId = params.get('payment_intent') ?? ''
	const donation = /^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)
		? await donationFor({ checkoutSessionId: sessionId })
		: /^pi_[A-Za-z0-9_]{1,200}$/.test(intentId)
			? await donationFor({ paymentIntentId: intentId })
			: null
	return {
		signedIn: Boolean(await getUser({ request, context })),
		// Without a payment to look up (an old link, a bookmark) the page thanks without claiming anything was paid.
		paying: Boolean(sessionId || intentId),
		confirmed: donation?.status === 'succeeded' ? { charged: formatDollars(donation.amountCents + donation.feeCents) } : null,
	}
}

export default function DonationSuccess({ loaderData: { signedIn, paying, confirmed } }: Route.ComponentProps) {
	return (
		<PublicShell title="Thank You for Your Donation!" width="max-w-2xl">
			<div className={cardClass('space-y-4 p-6')}>
				{confirmed ? (
					<p className="text-lg text-gray-900">
						Your gift of <strong>{confirmed.charged}</strong> is confirmed. A receipt for your records is on its way by e-mail.
					</p>
				) : !paying ? (
					<p className="text-lg text-gray-900">Thank you for supporting Hit Me Helpers.</p>
				) : (
					<p className="text-lg text-gray-900">
						Your payment is being confirmed. A receipt for your records follows by e-mail as soon as it is; nothing more is needed from you.
					</p>
				)}
				<p className="text-gray-700">Every gift prints and mails free emergency medical QR codes and keeps the service online.</p>
				<nav aria-label="What next" className="flex flex-wrap gap-3">
					{signedIn ? (
						<Link to="/dashboard" className={buttonClass('primary')}>
							Go to Dashboard
						</Link>
					) : (
						<Link to="/" className={buttonClass('primary')}>
							Create Your Medical Profile
						</Link>
					)}
					<Link to="/donate" className={buttonClass('secondary')}>
						Make Another Donation
					</Link>
				</nav>
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Thank You', { noindex: true })
