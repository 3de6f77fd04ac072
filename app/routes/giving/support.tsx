import { Link } from 'react-router'
import { cardClass } from '#app/ui/card.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { donationAction, givingPageData } from './giving-page.server.ts'
import { GivingUnavailable } from '../../ui/giving-unavailable.tsx'
import { MoreWaysToHelp } from './more-ways.tsx'
import { TierCards } from '../../features/donation/tier-cards.tsx'
import type { Route } from './+types/support'

/** Spec 002's donation tier page. Anyone may read it; giving from it signs the donor in first, then comes back here. */
export const loader = (args: Route.LoaderArgs) => givingPageData(args)

export const action = (args: Route.ActionArgs) => donationAction(args, 'tier')

export default function Support({ loaderData, actionData }: Route.ComponentProps) {
	const { enabled, inPage, signedIn, tier, amount, supportEmail } = loaderData
	const error = actionData?.result?.error
	return (
		<PublicShell
			title="Support Hit Me Helpers"
			width="max-w-3xl"
			intro="The service is free for everyone, always. If you can, a gift prints and mails QR codes and keeps the service online."
		>
			<div className="space-y-6">
				<section aria-label="Ways to give" className={cardClass('p-6')}>
					{enabled ? (
						<TierCards
							signedIn={signedIn}
							inPage={inPage}
							chosen={tier}
							amount={amount}
							errors={error ? { customAmount: error.customAmount ?? undefined, form: error[''] ?? undefined } : undefined}
						/>
					) : (
						<GivingUnavailable supportEmail={supportEmail} />
					)}
				</section>
				{enabled && !signedIn ? (
					<p className="text-gray-700">
						You will be asked to sign in before paying, so the gift and its receipts show in Your Giving. Rather not?{' '}
						<Link to="/donate" className="font-semibold text-blue-800 underline">
							Give as a guest
						</Link>
						.
					</p>
				) : null}
				<MoreWaysToHelp
					signedIn={signedIn}
					links={[
						{ to: '/pricing', label: 'Give Monthly' },
						{ to: '/payment-options', label: 'Payment Options' },
					]}
				/>
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () => [
	{ title: 'Support Hit Me Helpers' },
	{ name: 'description', content: 'Give once to the Hit Me Helpers Foundation: $5, $15, $50 or your own amount. The service stays free.' },
]
