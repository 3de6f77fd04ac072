import { Form, Link, NavLink, useLocation } from 'react-router'
import { DEFAULT_TIME_RANGE, TIME_RANGES, TIME_RANGE_LABELS, type TimeRange } from '#app/domain/admin/time-range.ts'
import { cx } from '#app/ui/cx.ts'
import { buttonClass } from '#app/ui/forms.tsx'

export const ADMIN_TABS = [
	{ to: '/admin', label: 'Orders', end: true },
	{ to: '/admin/donations', label: 'Donations', end: false },
	{ to: '/admin/consent', label: 'Consent', end: false },
	{ to: '/admin/qr-management', label: 'QR Management', end: false },
	{ to: '/admin/security', label: 'Security', end: false },
] as const

const small = 'min-h-10 px-3 py-1.5 text-sm'

/** Spec 002's admin header: back to the dashboard, the time range, Notify Recent Visitors, Export Orders and Refresh. */
export function AdminHeader({ range }: { range: TimeRange }) {
	const location = useLocation()
	const here = location.pathname + location.search
	return (
		<header className="border-b border-gray-300 bg-white">
			<div className="mx-auto flex max-w-6xl flex-wrap items-center gap-3 px-4 py-3">
				<Link to="/dashboard" className="font-semibold text-blue-800 underline">
					← Dashboard
				</Link>
				<h1 className="mr-auto text-xl font-bold text-gray-900">Owner dashboard</h1>
				<Form method="get" action={location.pathname} className="flex items-center gap-2">
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
				<Form method="post" action="/admin/notify-visitors">
					<input type="hidden" name="range" value={range} />
					<input type="hidden" name="redirectTo" value={here} />
					<button type="submit" className={buttonClass('blue', small)}>
						Notify Recent Visitors
					</button>
				</Form>
				<a href="/admin/orders.csv" download className={buttonClass('secondary', small)}>
					Export Orders
				</a>
				<Link to={here} reloadDocument className={buttonClass('secondary', small)}>
					Refresh
				</Link>
			</div>
			<nav aria-label="Owner dashboard" className="mx-auto max-w-6xl px-2">
				<ul className="flex overflow-x-auto sm:gap-1">
					{ADMIN_TABS.map((tab) => (
						<li key={tab.to}>
							<NavLink
								to={{ pathname: tab.to, search: range === DEFAULT_TIME_RANGE ? '' : `?range=${range}` }}
								end={tab.end}
								className={({ isActive }) =>
									cx(
										'inline-block border-b-4 px-3 py-3 text-sm font-semibold whitespace-nowrap',
										isActive ? 'border-brand-700 text-gray-900' : 'border-transparent text-gray-700 hover:text-gray-900',
									)
								}
							>
								{tab.label}
							</NavLink>
						</li>
					))}
				</ul>
			</nav>
		</header>
	)
}
