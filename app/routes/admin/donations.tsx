import { listDonations } from '#app/domain/admin/donations-admin.server.ts'
import { TimeRangeSchema, TIME_RANGE_LABELS } from '#app/domain/admin/time-range.ts'
import { cardClass } from '#app/ui/card.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import type { Route } from './+types/donations'
import { money } from './order-ui.tsx'

export async function loader({ request }: Route.LoaderArgs) {
	const range = TimeRangeSchema.parse(new URL(request.url).searchParams.get('range') ?? undefined)
	return { range, ...(await listDonations({ range })) }
}

export default function DonationsTab({ loaderData }: Route.ComponentProps) {
	const { donations, totals, range } = loaderData
	return (
		<section aria-labelledby="donations-title" className="space-y-4">
			<h2 id="donations-title" className="text-2xl font-bold text-gray-900">
				Donations
			</h2>
			<p className={cardClass('p-4 text-gray-900')}>
				{TIME_RANGE_LABELS[range]}: <strong>{money(totals.succeededCents / 100)}</strong> from {totals.count}{' '}
				{totals.count === 1 ? 'gift' : 'gifts'} by {totals.donors} {totals.donors === 1 ? 'donor' : 'donors'} (confirmed gifts only).
			</p>
			{donations.length === 0 ? (
				<p className={cardClass('p-6 text-gray-800')}>No donations in this time range.</p>
			) : (
				<div className={cardClass('overflow-x-auto')}>
					<table className="w-full text-left text-sm">
						<caption className="sr-only">Donations, newest first</caption>
						<thead className="border-b border-gray-300 bg-gray-50">
							<tr>
								<th scope="col" className="p-3">
									Donor
								</th>
								<th scope="col" className="p-3">
									Amount
								</th>
								<th scope="col" className="p-3">
									Tier
								</th>
								<th scope="col" className="p-3">
									Status
								</th>
								<th scope="col" className="p-3">
									Date
								</th>
							</tr>
						</thead>
						<tbody>
							{donations.map((gift) => (
								<tr key={gift.id} className="border-b border-gray-200">
									<td className="p-3 break-all">
										{gift.donorName ? `${gift.donorName} · ` : ''}
										{gift.donorEmail ?? 'Anonymous'}
									</td>
									<td className="p-3">
										{money(gift.amount)}
										{gift.monthly ? ' monthly' : ''}
									</td>
									<td className="p-3 capitalize">{gift.tier}</td>
									<td className="p-3">{gift.status}</td>
									<td className="p-3 whitespace-nowrap">{formatEtTime(gift.createdAt)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
		</section>
	)
}
