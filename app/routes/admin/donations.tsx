import { listDonations } from '#app/domain/admin/donations-admin.server.ts'
import { TimeRangeSchema, TIME_RANGE_LABELS } from '#app/domain/admin/time-range.ts'
import { cardClass } from '#app/ui/card.tsx'
import { DataTable } from '#app/ui/data-table.tsx'
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
				{TIME_RANGE_LABELS[range]}: <strong>{money(totals.receivedCents / 100)} received</strong> from {totals.count}{' '}
				{totals.count === 1 ? 'gift' : 'gifts'} by {totals.donors} {totals.donors === 1 ? 'donor' : 'donors'}:{' '}
				{money(totals.chargedCents / 100)} charged (fees donors chose to cover included), less {money(totals.refundedCents / 100)} refunded.
			</p>
			<DataTable
				caption="Donations, newest first; Amount is the gift, Received what was charged less refunds"
				rows={donations}
				rowKey={(gift) => gift.id}
				empty="No donations in this time range."
				columns={[
					{
						header: 'Donor',
						className: 'break-all',
						cell: (gift) => `${gift.donorName ? `${gift.donorName} · ` : ''}${gift.donorEmail ?? 'Anonymous'}`,
					},
					{ header: 'Amount', cell: (gift) => `${money(gift.amount)}${gift.monthly ? ' monthly' : ''}` },
					{ header: 'Received', cell: (gift) => money(gift.received) },
					{ header: 'Tier', className: 'capitalize', cell: (gift) => gift.tier },
					{ header: 'Status', cell: (gift) => gift.status },
					{ header: 'Date', className: 'whitespace-nowrap', cell: (gift) => formatEtTime(gift.createdAt) },
				]}
			/>
		</section>
	)
}
