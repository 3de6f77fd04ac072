import { Link } from 'react-router'
import { Logo, SiteFooter } from './brand.tsx'

export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: React.ReactNode }) {
	return (
		<div className="min-h-screen pb-24">
			<header className="px-4 pt-8 text-center">
				<Link to="/" className="inline-flex items-center gap-2 text-xl font-extrabold text-gray-900">
					<Logo className="size-9" /> Hit Me Helpers
				</Link>
			</header>
			<main id="main" className="mx-auto mt-6 max-w-md px-4">
				<div className="rounded-xl border border-gray-300 bg-white p-6 shadow-sm">
					<h1 className="text-2xl font-bold text-gray-900">{title}</h1>
					{subtitle ? <p className="mt-1 mb-6 text-gray-700">{subtitle}</p> : null}
					{children}
				</div>
			</main>
			<SiteFooter />
		</div>
	)
}
