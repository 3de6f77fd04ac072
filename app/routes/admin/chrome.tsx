import { Form, Link, useLocation } from 'react-router'
import { DEFAULT_TIME_RANGE, TIME_RANGES, TIME_RANGE_LABELS, type TimeRange } from '#app/domain/admin/time-range.ts'
import type { AnalyticsOverview } from '#app/domain/analytics/analytics.server.ts'
import { TabNav } from '#app/ui/tab-nav.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import { money, StatCards } from './order-ui.tsx'
import { PostButton } from './post-button.tsx'
import { buttonClass } from '#app/ui/forms.tsx'

export const ADMIN_TABS = [
	{ to: '/admin', label: 'Overview', end: true },
	{ to: '/admin/orders', label: 'Orders', end: false },
	{ to: '/admin/donations', label: 'Donations', end: false },
	{ to: '/admin/qr-scans', label: 'QR Scans', end: false },
	{ to: '/admin/traffic', label: 'Traffic', end: false },
	{ to: '/admin/filtered', label: 'Real Users', end: false },
	{ to: '/admin/emails', label: 'Emails', end: false },
	{ to: '/admin/consent', label: 'Consent', end: false },
	{ to: '/admin/qr-management', label: 'QR Management', end: false },
	{ to: '/admin/security', label: 'Security', end: false },
	{ to: '/admin/audit', label: 'Access Record', end: false },
] as const

const small = 'min-h-10 px-3 py-1.5 text-sm'

/** The tab (and so the view) a path belongs to: the longest tab path it starts with. */
export function adminTabOf(pathname: string) {
	const path = pathname.replace(/\/+$/, '') || '/'
	return ADMIN_TABS.filter((tab) => path === tab.to || (!tab.end && path.startsWith(`${tab.to}/`))).at(-1) ?? ADMIN_TABS[0]
}

/**
 * Spec 002's admin header: back to the dashboard, the time range, Notify Recent Visitors, Export CSV, Export Orders and
 * Refresh. On a phone the tools fold under one "Tools" disclosure and the tabs scroll sideways, so the view starts
 * near the top.
 */
export function AdminHeader({ range }: { range: TimeRange }) {
	const location = useLocation()
	const here = location.pathname + location.search
	return (
		<header className="relative border-b border-gray-300 bg-white">
			<div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-1.5 sm:py-3">
				<div className="sm:mr-auto sm:flex sm:items-center sm:gap-3">
					<Link to="/dashboard" className="text-sm font-semibold text-blue-800 underline sm:text-base">
						← Dashboard
					</Link>
					<h1 className="text-lg/6 font-bold text-gray-900 sm:text-xl">Owner dashboard</h1>
				</div>
				<WideOpen summary="Tools" menu>
					<div className="flex flex-wrap items-center gap-3">
						<Form method="get" action={location.pathname} className="flex flex-wrap items-center gap-2">
							<label htmlFor="admin-range" className="text-sm font-semibold text-gray-800">
								Time range
							</label>
							<select id="admin-range" name="range" defaultValue={range} className="rounded-md border border-gray-400 px-2 py-1.5 text-sm">
								{TIME_RANGES.map((value) => (
									<option key={value} value={value}>
										{TIME_RANGE_LABELS[value]}
									</option>
								))}
							</select>
							<button type="submit" className={buttonClass('secondary', small)}>
								Apply
							</button>
						</Form>
						<PostButton action="/admin/notify-visitors" fields={{ range, redirectTo: here }} buttonClassName={buttonClass('blue', small)}>
							Notify Recent Visitors
						</PostButton>
						<a href={`/admin/analytics.csv?range=${range}`} download className={buttonClass('secondary', small)}>
							Export CSV
						</a>
						<a href="/admin/orders.csv" download className={buttonClass('secondary', small)}>
							Export Orders
						</a>
						<Link to={here} reloadDocument className={buttonClass('secondary', small)}>
							Refresh
						</Link>
					</div>
				</WideOpen>
			</div>
			<TabNav
				label="Owner dashboard"
				className="mx-auto max-w-6xl px-2"
				listClassName="flex overflow-x-auto sm:gap-1"
				linkClassName="max-sm:py-2"
				tabs={ADMIN_TABS.map((tab) => ({
					...tab,
					to: { pathname: tab.to, search: range === DEFAULT_TIME_RANGE ? '' : `?range=${range}` },
				}))}
			/>
		</header>
	)
}

/**
 * Folded behind its summary on a phone (a `menu` opens over the page below), always open from the small breakpoint up
 * (app.css, `.wide-open`).
 */
function WideOpen({ summary, menu, children }: { summary: string; menu?: boolean; children: React.ReactNode }) {
	return (
		<details className={menu ? 'wide-open wide-open-menu' : 'wide-open'}>
			<summary className={buttonClass('secondary', `${small} cursor-pointer sm:hidden`)}>{summary}</summary>
			{children}
		</details>
	)
}

/**
 * The header's stat cards (spec 002 §2), for the chosen time range; "Real users" leaves out bots, the owner and excluded
 * addresses, and each rate is of them: real users who signed up (or ordered) over real users.
 */
export function HeaderStats({ analytics: a }: { analytics: AnalyticsOverview }) {
	const range = TIME_RANGE_LABELS[a.timeRange].toLowerCase()
	const realUsers = a.realUsers.toLocaleString('en-US')
	return (
		<section aria-label={`Figures for the ${range}`} className="mx-auto mt-4 max-w-6xl px-4">
			<WideOpen summary={`Figures for the ${range}`}>
				<StatCards
					columns="grid-cols-2 md:grid-cols-3 lg:grid-cols-5"
					stats={[
						['Platform users', a.totalUsers, 'all accounts'],
						['Real user visits', a.totalVisits, `${realUsers} real users: no bots, not the owner`],
						['Last visit', a.lastVisit ? formatEtTime(a.lastVisit) : 'None yet', 'by a real user'],
						[
							'Total revenue',
							money(a.totalRevenue),
							`received less refunds: shop ${money(a.shopRevenue)} · donations ${money(a.donationRevenue)}`,
						],
						[
							'New registrations',
							a.totalSignups,
							`${a.signupRate}% conversion rate: ${a.realUsersWhoSignedUp} of ${realUsers} real users signed up`,
						],
						['E-mail signups', a.emailSignups, 'with e-mail and password'],
						[
							'Product orders',
							a.totalOrders,
							`${a.orderConversionRate}% purchase rate: ${a.realUsersWhoOrdered} of ${realUsers} real users ordered`,
						],
						['Medical QR created', a.totalQrCreated, 'made or claimed'],
						['QR downloads', a.totalQrDownloaded, 'code images saved'],
						['Emergency access', a.emergencyAccess, `of ${a.totalQrAccessed.toLocaleString('en-US')} scans`],
					]}
				/>
			</WideOpen>
		</section>
	)
}
