import { NavLink } from 'react-router'
import { cx } from '#app/ui/cx.ts'

const tabs = [
	{ to: '/dashboard', label: 'Medical Info', end: true },
	{ to: '/dashboard/qr-codes', label: 'QR Codes', end: false },
	{ to: '/dashboard/profile', label: 'Profile', end: false },
]

/** The dashboard's tabs are real pages, so they work without JavaScript. */
export function DashboardTabs() {
	return (
		<nav aria-label="Dashboard" className="border-b border-gray-300 bg-white">
			<ul className="mx-auto flex max-w-4xl overflow-x-auto px-2 sm:gap-1 sm:px-4">
				{tabs.map((tab) => (
					<li key={tab.to}>
						<NavLink
							to={tab.to}
							end={tab.end}
							className={({ isActive }) =>
								cx(
									'inline-block border-b-4 px-3 py-3 text-sm font-semibold whitespace-nowrap sm:px-4 sm:text-base',
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
	)
}
