import { feeText, INTERNATIONAL_FEE, PAYMENT_METHOD_GROUPS, PAYMENT_METHOD_NAMES, STANDARD_FEE } from '#app/domain/giving/payment-methods.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import type { Route } from './+types/payment-options'
import { cardClass } from '#app/ui/card.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { LinkList } from '#app/ui/link-list.tsx'

export default function PaymentOptions() {
	return (
		<PublicShell title="Payment Options" intro="The ways you can pay for a donation or an order, and what our payment processor charges for each payment.">
			<div className="space-y-8">
				<section aria-labelledby="fees-title" className={cardClass('p-6')}>
					<h2 id="fees-title" className="text-xl font-bold">
						Processing fees
					</h2>
					<dl className="mt-3 space-y-3 text-gray-800">
						<div>
							<dt className="font-semibold">Standard card, digital wallets and buy now, pay later</dt>
							<dd>{feeText(STANDARD_FEE)} per payment</dd>
						</div>
						<div>
							<dt className="font-semibold">International payment methods</dt>
							<dd>{feeText(INTERNATIONAL_FEE)} per payment</dd>
						</div>
					</dl>
				</section>
				<section aria-labelledby="methods-title">
					<h2 id="methods-title" className="text-xl font-bold">
						Accepted payment methods
					</h2>
					<div className="mt-3 grid gap-4 sm:grid-cols-2">
						{PAYMENT_METHOD_GROUPS.map((group) => (
							<section key={group.id} aria-labelledby={`${group.id}-title`} className={cardClass('p-5')}>
								<h3 id={`${group.id}-title`} className="text-lg font-bold">
									{group.title}
								</h3>
								<p className="text-sm text-gray-700">{feeText(group.fee)} per payment</p>
								<ul className="mt-3 flex flex-wrap gap-2">
									{group.methods.map((method) => (
										<li key={method} className="rounded-full border border-gray-400 px-3 py-1 text-sm font-medium text-gray-900">
											{PAYMENT_METHOD_NAMES[method]}
										</li>
									))}
								</ul>
							</section>
						))}
					</div>
				</section>
				<nav aria-label="Next steps" className="flex flex-wrap gap-3">
					<LinkList
						links={[
							{ to: '/dashboard', label: 'Back to Dashboard', className: buttonClass('secondary') },
							{ to: '/donate', label: 'Support', className: buttonClass('primary') },
							{ to: '/shop', label: 'Shop', className: buttonClass('blue') },
						]}
					/>
				</nav>
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Payment Options', { description: 'Accepted payment methods and processing fees for donations and orders.' })
