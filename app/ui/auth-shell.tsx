import { SiteFrame } from './public-shell.tsx'
import { cardClass } from './card.tsx'

export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: React.ReactNode }) {
	return (
		<SiteFrame width="max-w-md">
			<div className={cardClass('p-6')}>
				<h1 className="text-2xl font-bold text-gray-900">{title}</h1>
				{subtitle ? <p className="mt-1 mb-6 text-gray-700">{subtitle}</p> : null}
				{children}
			</div>
		</SiteFrame>
	)
}
