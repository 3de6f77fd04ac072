import { Link } from 'react-router'
import { getUser } from '#app/middleware/user.server.ts'
import { formatDollars, PLANS } from '#app/domain/giving/amounts.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { env } from '#app/utils/env.server.ts'
import { GivingUnavailable } from '../../ui/giving-unavailable.tsx'
import { MoreWaysToHelp } from './more-ways.tsx'
import type { Route } from './+types/pricing'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	return { signedIn: Boolean(await getUser({ request, context })), enabled: paymentsEnabled(), supportEmail: env.SUPPORT_EMAIL }
}

/** Signed out, a plan's button signs in first and comes back to it. */
const planHref = (plan: string, signedIn: boolean) =>
	signedIn ? `/subscribe?plan=${plan}` : `/login?${new URLSearchParams({ redirectTo: `/subscribe?plan=${plan}` })}`

export default function Pricing({ loaderData: { signedIn, enabled, supportEmail } }: Route.ComponentProps) {
	return (
		<PublicShell
			title="Give Monthly"
			intro="Hit Me Helpers is free for everyone, and stays free: a plan is a way to give every month, and nothing is withheld from anyone who does not have one."
		>
			{enabled ? <Plans signedIn={signedIn} /> : <GivingUnavailableCard supportEmail={supportEmail} signedIn={signedIn} />}
		</PublicShell>
	)
}

function GivingUnavailableCard({ supportEmail, signedIn }: { supportEmail: string; signedIn: boolean }) {
	return (
		<div className="space-y-6">
			<section aria-label="Monthly giving" className={cardClass('p-6')}>
				<GivingUnavailable supportEmail={supportEmail} />
			</section>
			<MoreWaysToHelp signedIn={signedIn} links={[{ to: '/payment-options', label: 'Payment Options' }]} />
		</div>
	)
}

function Plans({ signedIn }: { signedIn: boolean }) {
	return (
		<>
			<ul className="grid gap-4 sm:grid-cols-3">
				{PLANS.map((plan) => (
					<li key={plan.id} className={cardClass('flex flex-col p-6')}>
						<h2 className="text-xl font-bold text-gray-900">{plan.name}</h2>
						<p className="mt-1 text-2xl font-extrabold text-gray-900">
							{formatDollars(plan.cents)} <span className="text-base font-normal text-gray-700">a month</span>
						</p>
						<p className="mt-2 flex-1 text-gray-800">{plan.description}</p>
						<Link to={planHref(plan.id, signedIn)} className={buttonClass('primary', 'mt-4')} aria-label={`Give ${plan.name} monthly`}>
							Give Monthly
						</Link>
					</li>
				))}
			</ul>
			<p className="mt-6 text-gray-700">
				Rather give once?{' '}
				<Link to="/donate" className="font-semibold text-blue-800 underline">
					Make a one-off donation
				</Link>
				. You can change or cancel a monthly gift at any time from Your Giving.
			</p>
		</>
	)
}

export const meta: Route.MetaFunction = () =>
	pageMeta('Give Monthly', {
		description: 'Monthly gifts to the Hit Me Helpers Foundation: Basic $4.99, Premium $9.99, Family $19.99 a month.',
	})
