import { useRouteLoaderData } from 'react-router'
import { TIME_RANGE_LABELS } from '#app/domain/admin/time-range.ts'
import { cardClass } from '#app/ui/card.tsx'
import { ServerChart } from '#app/ui/server-chart.tsx'
import { DataTable } from '#app/ui/data-table.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import type { loader as layoutLoader } from './layout.tsx'
import { money } from './order-ui.tsx'
import { Section } from './section.tsx'

const ACTIVITY_LABELS = { signup: 'Signup', order: 'Order', donation: 'Donation' } as const
const count = (n: number) => n.toLocaleString('en-US')

/** The overview tab: growth and the newest activity, from the figures the layout already loaded for the header. */
export default function OverviewTab() {
	const layout = useRouteLoaderData<typeof layoutLoader>('routes/admin/layout')
	if (!layout) return null
	const a = layout.analytics
	const range = TIME_RANGE_LABELS[a.timeRange]
	const first = a.userGrowth[0]
	const last = a.userGrowth.at(-1)
	const grown = first && last ? last.totalUsers - (first.totalUsers - first.newUsers) : 0
	return (
		<div className="space-y-6">
			<h2 className="text-2xl font-bold text-gray-900">Overview</h2>
			<Section
				id="growth-title"
				title="Growth metrics"
				className={cardClass('space-y-4 p-4')}
				titleClassName="text-xl font-bold text-gray-900"
			>
				<ul className="grid gap-2 text-gray-900 sm:grid-cols-2">
					<li>
						<strong>{grown.toLocaleString('en-US')}</strong> new accounts ({range.toLowerCase()}), now{' '}
						<strong>{a.totalUsers.toLocaleString('en-US')}</strong> in all
					</li>
					<li>
						Of {count(a.realUsers)} real users, <strong>{a.signupRate}%</strong> signed up ({count(a.realUsersWhoSignedUp)}) and{' '}
						<strong>{a.orderConversionRate}%</strong> ordered ({count(a.realUsersWhoOrdered)})
					</li>
					<li>
						<strong>{money(a.totalRevenue)}</strong> received, less refunds: {money(a.shopRevenue)} from the shop,{' '}
						{money(a.donationRevenue)} in donations
					</li>
					<li>
						<strong>{a.emergencyAccess.toLocaleString('en-US')}</strong> emergency scans of {a.totalQrAccessed.toLocaleString('en-US')} in
						all
					</li>
				</ul>
				<ServerChart html={layout.growthChart} />
			</Section>
			<Section id="activity-title" title="Recent activity" className="space-y-2" titleClassName="text-xl font-bold text-gray-900">
				<DataTable
					caption="The 10 newest signups, orders and donations; Amount is the money each brought in, less refunds"
					rows={a.recentActivity}
					rowKey={(item) => `${item.type}-${item.timestamp}-${item.description}`}
					empty="No signups, orders or donations yet."
					columns={[
						{ header: 'Type', cell: (item) => ACTIVITY_LABELS[item.type] },
						{ header: 'What happened', className: 'break-words', cell: (item) => item.description },
						{ header: 'Amount', cell: (item) => (item.amount === null ? '—' : money(item.amount)) },
						{ header: 'When', className: 'whitespace-nowrap', cell: (item) => formatEtTime(item.timestamp) },
					]}
				/>
			</Section>
		</div>
	)
}
