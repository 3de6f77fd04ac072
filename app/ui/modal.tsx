import { useEffect, useId, useRef } from 'react'
import { Link, useNavigate } from 'react-router'

/**
 * A dialog whose open state is the URL (?dialog=...), so it works as a plain page overlay without JavaScript.
 * With JavaScript it takes focus, keeps Tab inside, and closes on Escape.
 */
export function Modal({
	title,
	closeHref,
	children,
	focusClose = false,
	wide = false,
}: {
	title: string
	closeHref: string
	children: React.ReactNode
	/** For a destructive confirmation: focus starts on "close", never on the action. */
	focusClose?: boolean
	wide?: boolean
}) {
	const titleId = useId()
	const ref = useRef<HTMLDivElement>(null)
	const navigate = useNavigate()
	useEffect(() => {
		const node = ref.current
		const focusable = () => Array.from(node?.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([type=hidden]), select, textarea') ?? [])
		;(focusClose ? focusable()[0] : (focusable().find((el) => el.tagName !== 'A') ?? node))?.focus()
		const onKey = (event: KeyboardEvent) => {
			if (event.key === 'Escape') navigate(closeHref, { preventScrollReset: true })
			if (event.key !== 'Tab') return
			const items = focusable()
			const first = items[0]
			const last = items[items.length - 1]
			if (event.shiftKey && document.activeElement === first) {
				event.preventDefault()
				last?.focus()
			} else if (!event.shiftKey && document.activeElement === last) {
				event.preventDefault()
				first?.focus()
			}
		}
		document.addEventListener('keydown', onKey)
		return () => document.removeEventListener('keydown', onKey)
	}, [closeHref, navigate, focusClose])
	return (
		<div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-gray-900/60 p-4">
			<div ref={ref} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} className={`w-full rounded-xl bg-white p-6 shadow-xl sm:my-auto ${wide ? 'max-w-4xl' : 'max-w-lg'}`}>
				<div className="mb-4 flex items-start justify-between gap-4">
					<h2 id={titleId} className="text-xl font-bold text-gray-900">
						{title}
					</h2>
					<Link to={closeHref} preventScrollReset className="-m-2 rounded p-2 text-2xl leading-none text-gray-700 hover:bg-gray-100" aria-label="Close">
						×
					</Link>
				</div>
				{children}
			</div>
		</div>
	)
}
