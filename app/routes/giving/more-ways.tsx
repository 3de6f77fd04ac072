import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'

/** The row of ways on from a giving page, ending with the way home (the dashboard when signed in). */
export function MoreWaysToHelp({ links, signedIn }: { links: Array<{ to: string; label: string }>; signedIn: boolean }) {
	return (
		<nav aria-label="More ways to help" className="flex flex-wrap gap-3">
			{[...links, signedIn ? { to: '/dashboard', label: 'Dashboard' } : { to: '/', label: 'Home' }].map((link) => (
				<Link key={link.to} to={link.to} className={buttonClass('secondary')}>
					{link.label}
				</Link>
			))}
		</nav>
	)
}
