import { Logo } from './brand.tsx'

/** The faint full-screen logo behind every page: decoration only, never in the way of a click or a screen reader. */
export function BackgroundLogo() {
	return (
		<div
			aria-hidden="true"
			className="pointer-events-none fixed inset-0 -z-10 flex items-center justify-center text-brand-700 opacity-[0.08] print:hidden"
		>
			<Logo outline className="size-[70vmin]" />
		</div>
	)
}
