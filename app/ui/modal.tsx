import { useEffect, useId, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { FocusFields } from './focus-fields.ts'

/** Where focus starts as a dialog opens: never on an action that changes something. */
export type DialogStart = 'field' | 'close' | 'title'

// What Tab reaches: a control kept out of the tab order (tabIndex -1, such as a form's hidden default button) is left out.
const reachable = (selectors: string[]) =>
	selectors.map((selector) => `${selector}:not([tabindex="-1"]):not([aria-hidden="true"])`).join(', ')
const FIELDS = reachable(['input:not([type=hidden]):not([disabled])', 'select:not([disabled])', 'textarea:not([disabled])'])
const FOCUSABLE = `${reachable(['a[href]', 'button:not([disabled])'])}, ${FIELDS}`
const visible = (el: HTMLElement) => el.getClientRects().length > 0

/**
 * A dialog whose open state is the URL (?dialog=...), so it works as a plain page overlay without JavaScript.
 * The page behind cannot be reached: with JavaScript it is made inert, without it a stylesheet rule hides it from
 * focus and assistive technology (app.css, `[data-modal]`). Focus starts in the dialog (the browser's autofocus
 * without JavaScript), on the first field with an error after a refused submission; with JavaScript, Tab stays
 * inside, Escape closes, and closing returns focus to what opened it.
 */
export function Modal({
	title,
	closeHref,
	children,
	start,
	opener,
	showsErrors = false,
	wide = false,
}: {
	title: string
	closeHref: string
	children: React.ReactNode
	/**
	 * Where focus starts: the first field of a form ('field'); Close, for a confirmation whose action destroys something
	 * ('close'); the heading, for a dialog read from the top (a cart, a list of choices: 'title').
	 */
	start: DialogStart
	/** The id of what opens the dialog: without JavaScript, Close leads back to it (a fragment focuses a link). */
	opener?: string
	/** The dialog shows a submission the server refused: focus goes to its first field with an error. */
	showsErrors?: boolean
	wide?: boolean
}) {
	const titleId = useId()
	const ref = useRef<HTMLDivElement>(null)
	const overlay = useRef<HTMLDivElement>(null)
	const navigate = useNavigate()
	// The autofocus attributes are for pages without JavaScript; with it, the effects below move focus, after noting
	// what had it.
	const serverFocus = !useHydrated()
	const closeRef = useRef<HTMLAnchorElement>(null)
	const titleRef = useRef<HTMLHeadingElement>(null)
	// What had focus when the dialog was asked for, read before any field of it can take focus as it mounts.
	const [focusedBefore] = useState(() => (typeof document === 'undefined' ? null : document.activeElement))

	const focusable = (selector = FOCUSABLE) => Array.from(ref.current?.querySelectorAll<HTMLElement>(selector) ?? []).filter(visible)

	useEffect(() => {
		const opener =
			focusedBefore instanceof HTMLElement && focusedBefore !== document.body && !overlay.current?.contains(focusedBefore)
				? focusedBefore
				: null
		const outside = inertOutside(overlay.current)
		if (!ref.current?.contains(document.activeElement) || document.activeElement === ref.current) {
			const first = start === 'field' ? focusable(FIELDS)[0] : start === 'title' ? titleRef.current : null
			;(first ?? closeRef.current)?.focus()
		}
		return () => {
			outside.forEach((el) => el.removeAttribute('inert'))
			if (opener?.isConnected) opener.focus({ preventScroll: true })
		}
		// Once, when the dialog opens.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [])

	useEffect(() => {
		if (showsErrors) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
	}, [showsErrors])

	useEffect(() => {
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
	}, [closeHref, navigate])

	return (
		<div ref={overlay} data-modal="" className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-gray-900/60 p-4">
			<div
				ref={ref}
				role="dialog"
				aria-modal="true"
				aria-labelledby={titleId}
				tabIndex={-1}
				className={`w-full rounded-xl bg-white p-6 shadow-xl sm:my-auto ${wide ? 'max-w-4xl' : 'max-w-lg'}`}
			>
				<div className="mb-4 flex items-start justify-between gap-4">
					<h2
						id={titleId}
						ref={titleRef}
						tabIndex={-1}
						autoFocus={serverFocus && !showsErrors && start === 'title'}
						className="text-xl font-bold text-gray-900"
					>
						{title}
					</h2>
					<Link
						ref={closeRef}
						to={opener ? `${closeHref}#${opener}` : closeHref}
						preventScrollReset
						autoFocus={serverFocus && !showsErrors && start === 'close'}
						className="-m-2 rounded p-2 text-2xl leading-none text-gray-700 hover:bg-gray-100"
						aria-label="Close"
					>
						×
					</Link>
				</div>
				<FocusFields.Provider value={!serverFocus ? null : showsErrors ? 'errors' : start === 'field' ? 'all' : null}>
					{children}
				</FocusFields.Provider>
			</div>
		</div>
	)
}

/** Makes everything outside `node` inert (the siblings of it and of its ancestors up to body); returns what it changed. */
function inertOutside(node: HTMLElement | null) {
	const changed: HTMLElement[] = []
	for (let el = node; el && el !== document.body; el = el.parentElement) {
		for (const sibling of Array.from(el.parentElement?.children ?? [])) {
			// Notifications stay announced.
			if (sibling === el || !(sibling instanceof HTMLElement) || sibling.inert || sibling.hasAttribute('data-live-region')) continue
			sibling.inert = true
			changed.push(sibling)
		}
	}
	return changed
}
