import { cardClass } from '#app/ui/card.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { GivingUnavailable } from '../../ui/giving-unavailable.tsx'
import { MoreWaysToHelp } from './more-ways.tsx'
import { donationAction, givingPageData } from './giving-page.server.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/donate'
import { pageMeta } from '#app/utils/meta.ts'

// The form (conform, zod) loads after the page: until then it posts as a plain form.
const DonateForm = lazyComponent('donate-form', () => import('./donate-form.tsx').then((module) => module.DonateForm))

export const loader = (args: Route.LoaderArgs) => givingPageData(args)

export const action = (args: Route.ActionArgs) => donationAction(args, 'guest')

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
						<DonateForm lastResult={actionData?.result} tier={tier} amount={amount} inPage={inPage} />
					) : (
						<GivingUnavailable supportEmail={supportEmail} />
					)}
				</section>
				{enabled ? (
					<p className="text-gray-700">
						You pay on Stripe&apos;s secure page; a receipt for your records follows by e-mail once the payment is confirmed.
					</p>
				) : null}
				<MoreWaysToHelp
					signedIn={signedIn}
					links={[
						{ to: '/payment-options', label: 'Payment Options' },
						{ to: '/shop', label: 'Shop' },
					]}
				/>
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () =>
	pageMeta('Donate', { description: 'Give once to the Hit Me Helpers Foundation: free emergency medical QR codes for everyone.' })
