import { Link } from 'react-router'
import { formatDollars } from '#app/domain/giving/amounts.ts'
import { giftsOf } from '#app/domain/giving/statements.server.ts'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { formatDate } from '#app/utils/dates.ts'
import type { Route } from './+types/your-giving'

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireUser({ request, context })
	const gifts = await giftsOf(user.id)
	const years = [...new Set([new Date().getUTCFullYear(), ...gifts.map((gift) => gift.paidAt.getUTCFullYear())])].sort((a, b) => b - a)
	return {
		gifts: gifts.map((gift) => ({
			id: gift.id,
			date: formatDate(gift.paidAt),
			charged: formatDollars(gift.amountCents + gift.feeCents),
			fee: gift.feeCents ? formatDollars(gift.feeCents) : null,
			refunded: gift.refundedCents ? formatDollars(gift.refundedCents) : null,
		})),
		years,
	}
}

export default function YourGiving({ loaderData: { gifts, years } }: Route.ComponentProps) {
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
			<h1 className="text-2xl font-bold">Your Giving</h1>
			<section aria-labelledby="gifts-title" className={cardClass('p-6')}>
				<h2 id="gifts-title" className="text-xl font-bold">
					Your gifts
				</h2>
				{gifts.length ? (
					<div className="mt-3 overflow-x-auto">
						<table className="w-full text-left">
							<thead>
								<tr className="border-b border-gray-300">
									<th scope="col" className="py-2 pr-4">
										Date
									</th>
									<th scope="col" className="py-2 pr-4">
										Receipt
									</th>
									<th scope="col" className="py-2 pr-4">
										Amount
									</th>
									<th scope="col" className="py-2">
										Refunded
									</th>
								</tr>
							</thead>
							<tbody>
								{gifts.map((gift) => (
									<tr key={gift.id} className="border-b border-gray-200">
										<td className="py-2 pr-4">{gift.date}</td>
										<td className="py-2 pr-4">D-{gift.id}</td>
										<td className="py-2 pr-4">
											{gift.charged}
											{gift.fee ? <span className="block text-sm text-gray-700">including {gift.fee} to cover the card fee</span> : null}
										</td>
										<td className="py-2">{gift.refunded ?? 'None'}</td>
									</tr>
								))}
							</tbody>
						</table>
					</div>
				) : (
					<p className="mt-2 text-gray-800">No gifts yet. Gifts appear here once the payment is confirmed.</p>
				)}
				<Link to="/donate" className={buttonClass('primary', 'mt-4')}>
					Make a Donation
				</Link>
			</section>
			<section aria-labelledby="statements-title" className={cardClass('p-6')}>
				<h2 id="statements-title" className="text-xl font-bold">
					Year-end statements
				</h2>
				<p className="mt-2 text-gray-800">
					A PDF of each year&apos;s confirmed gifts, with the foundation&apos;s details, for your tax records.
				</p>
				<ul className="mt-3 flex flex-wrap gap-2">
					{years.map((year) => (
						<li key={year}>
							<a href={`/dashboard/giving/statement/${year}`} download className={buttonClass('secondary')}>
								Statement {year} (PDF)
							</a>
						</li>
					))}
				</ul>
			</section>
		</main>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Your Giving · Hit Me Helpers' }]
