import { Link, Outlet, useLocation } from 'react-router'
import { newOrdersFor } from '#app/domain/admin/orders.server.ts'
import { analyticsOverview } from '#app/domain/analytics/analytics.server.ts'
import { TimeRangeSchema, TIME_RANGE_LABELS } from '#app/domain/admin/time-range.ts'
import { chartHtml } from '#app/ui/chart-html.server.tsx'
import { LineChart } from '#app/ui/charts.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { usePolling } from '#app/utils/use-polling.ts'
import type { Route } from './+types/layout'
import { adminTabOf, AdminHeader, HeaderStats } from './chrome.tsx'
import { PostButton } from './post-button.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { useViewFocus } from '#app/ui/use-view-focus.ts'

/**
 * Spec 002 §9: analytics (the header's stat cards, the overview, e-mail) every 15 s, the new-order alert every 30 s:
 * one 15 s refresh of the whole page keeps both.
 */
const POLL_MS = 15_000

export async function loader(args: Route.LoaderArgs) {
	const owner = await requireGrantedOwner(args)
	const range = TimeRangeSchema.parse(new URL(args.request.url).searchParams.get('range') ?? undefined)
	const [newOrders, analytics] = await Promise.all([newOrdersFor(owner.id), analyticsOverview(range)])
	const growthChart = chartHtml(
		'growth',
		<LineChart
			title={`Accounts, ${TIME_RANGE_LABELS[range].toLowerCase()}`}
			description="The number of accounts at the end of each day (America/New_York)."
			labelHeader="Day"
			valueLabel="Accounts"
			points={analytics.userGrowth.map((day) => ({ label: formatDate(day.date), value: day.totalUsers }))}
		/>,
	)
	return { range, newOrders, analytics, growthChart }
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
	usePolling(POLL_MS)
	const location = useLocation()
	const main = useViewFocus<HTMLElement>()
	const { newOrders, analytics } = loaderData
	return (
		<div className="min-h-screen bg-gray-50">
			<AdminHeader range={loaderData.range} />
			<HeaderStats analytics={analytics} />
			{newOrders.orders.length ? (
				<section aria-labelledby="new-orders-title" className="mx-auto mt-4 max-w-6xl px-4">
					<div role="status" className="rounded-lg border border-blue-300 bg-blue-50 p-4">
						<h2 id="new-orders-title" className="font-bold text-blue-900">
							{newOrders.total === 1 ? 'A new order' : `${newOrders.total} new orders`} since you last looked
						</h2>
						<ul className="mt-2 space-y-1">
							{newOrders.orders.map((order) => (
								<li key={order.orderId}>
									<Link to={`/admin/orders/${order.orderId}`} className="font-semibold text-blue-800 underline">
										{order.orderNumber}
									</Link>{' '}
									{order.customerName ?? order.customerEmail}
								</li>
							))}
						</ul>
						<PostButton
							action="/admin/orders/seen"
							className="mt-3"
							fields={{ seenAt: newOrders.orders[0]!.createdAt, redirectTo: location.pathname + location.search }}
							buttonClassName={buttonClass('secondary', 'min-h-10 px-3 py-1.5 text-sm')}
						>
							Dismiss
						</PostButton>
					</div>
				</section>
			) : null}
			<main id="main" ref={main} className="mx-auto max-w-6xl px-4 py-6">
				<Outlet />
			</main>
		</div>
	)
}

/** Each view is named in the title (its tab's name), so a reader knows which one a page load or a tab change opened. */
export const meta: Route.MetaFunction = ({ location }) =>
	pageMeta(`${adminTabOf(location.pathname).label} · Owner dashboard`, { noindex: true })
