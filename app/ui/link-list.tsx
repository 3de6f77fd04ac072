import type { ReactNode } from 'react'
import { Link } from 'react-router'

export type LinkItem = { to: string; label: ReactNode; className: string }

/** A row of links, in order: a nav's or a page's next steps. */
export function LinkList({ links }: { links: LinkItem[] }) {
	return links.map(({ to, label, className }) => (
		<Link key={to} to={to} className={className}>
			{label}
		</Link>
	))
}
