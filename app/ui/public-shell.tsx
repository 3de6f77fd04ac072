import { Link } from 'react-router'
import { Logo, SiteFooter } from './brand.tsx'
import { cx } from './cx.ts'

/** The frame of the pages open to visitors: the brand above, the main content, the footer. */
export function SiteFrame({ width, children }: { width: string; children: React.ReactNode }) {
	return (
		<div className="min-h-screen pb-24">
			<header className="px-4 pt-8 text-center">
				<Link to="/" className="inline-flex items-center gap-2 text-xl font-extrabold text-gray-900">
					<Logo className="size-9" /> Hit Me Helpers
				</Link>
			</header>
			<main id="main" className={cx('mx-auto mt-6 px-4', width)}>
				{children}
			</main>
			<SiteFooter />
		</div>
	)
}

/** Pages open to visitors (team, payment options, free QR request): one heading and the content. */
export function PublicShell({
	title,
	intro,
	children,
	width = 'max-w-4xl',
}: {
	title: string
	intro?: React.ReactNode
	children: React.ReactNode
	width?: string
}) {
	return (
		<SiteFrame width={width}>
			<h1 className="text-3xl font-bold text-gray-900">{title}</h1>
			{intro ? <div className="mt-2 text-lg text-gray-700">{intro}</div> : null}
			<div className="mt-6">{children}</div>
		</SiteFrame>
	)
}
