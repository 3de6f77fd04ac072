export const FOUNDATION_NAME = 'Hit Me Helpers Foundation'

/** The red badge; `outline` draws it as thin lines only, for the faint background (no solid blocks of colour). */
export function Logo({ className = 'size-10', outline = false }: { className?: string; outline?: boolean }) {
	return (
		<svg viewBox="0 0 40 40" className={className} aria-hidden="true" focusable="false">
			{outline ? (
				<g fill="none" stroke="currentColor" strokeWidth="0.4">
					<rect x="0.5" y="0.5" width="39" height="39" rx="9" />
					<path d="M16 8h8v8h8v8h-8v8h-8v-8H8v-8h8z" />
				</g>
			) : (
				<>
					<rect width="40" height="40" rx="9" fill="#b91c1c" />
					<path d="M16 8h8v8h8v8h-8v8h-8v-8H8v-8h8z" fill="#fff" />
				</>
			)}
		</svg>
	)
}

export function SiteFooter() {
	const year = new Date().getFullYear()
	return (
		<footer className="fixed inset-x-0 bottom-0 z-30 border-t border-gray-300 bg-white/95 px-4 py-2 text-xs text-gray-700 backdrop-blur">
			<div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-2">
				<ul className="flex gap-2" aria-label="Site security">
					{['Secure Site', 'HTTPS', 'Encrypted'].map((badge) => (
						<li key={badge} className="rounded-full border border-green-700 px-2 py-0.5 font-semibold text-green-800">
							{badge}
						</li>
					))}
				</ul>
				<p>
					© {year} {FOUNDATION_NAME}. All rights reserved.
				</p>
			</div>
		</footer>
	)
}
