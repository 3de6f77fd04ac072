import { NavLink, type To } from 'react-router'
import { cx } from '#app/ui/cx.ts'

export type Tab = { to: To; label: string; end: boolean }

/** A row of tabs that are real pages, so they work without JavaScript; the current one is underlined. */
export function TabNav({
	label,
	tabs,
	className,
	listClassName,
	linkClassName,
}: {
	label: string
	tabs: readonly Tab[]
	className: string
	listClassName: string
	linkClassName?: string
}) {
	return (
		<nav aria-label={label} className={className}>
			<ul className={listClassName}>
				{tabs.map((tab) => (
					<li key={tab.label}>
						<NavLink
							to={tab.to}
							end={tab.end}
							className={({ isActive }) =>
								cx(
									'inline-block border-b-4 px-3 py-3 text-sm font-semibold whitespace-nowrap',
									linkClassName,
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
