import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'react-router'
import { CLIENT_TOAST_EVENT } from '#app/utils/network-failure.ts'
import type { Toast, ToastInput } from '#app/utils/toast.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { cx } from './cx.ts'

const DISPLAY_MS = 5000

/**
 * One toast at a time, in a region F8 focuses. Without JavaScript a CSS animation hides it after 5 s. It sits at the
 * bottom edge, clear of the header's links and a dialog's close button; clicks pass through it to what is beneath
 * (only its dismiss button takes them), and a focused control scrolls clear of it (app.css, `[data-toast]`).
 * The room kept for it at the page's end stays until the next navigation: given back when the toast left, it moved
 * the page under the pointer 5 s after anything was done (a click aimed at a button landed beside it).
 */
export function Toaster({ toast }: { toast: Toast | null }) {
	const [current, setCurrent] = useState(toast)
	const regionRef = useRef<HTMLElement>(null)
	const { key } = useLocation()
	const [roomKeptOn, setRoomKeptOn] = useState<string | null>(null)
	useEffect(() => {
		if (current) setRoomKeptOn(key)
	}, [current, key])

	useEffect(() => setCurrent(toast), [toast])

	useEffect(() => {
		const onClientToast = (event: Event) => {
			const { id, type, title, description } = (event as CustomEvent<ToastInput>).detail
			// ToastSchema's defaults, without bringing zod to every page for a toast the page itself raised.
			setCurrent({ id: id ?? Math.random().toString(36).slice(2), type: type ?? 'message', title, description })
		}
		window.addEventListener(CLIENT_TOAST_EVENT, onClientToast)
		return () => window.removeEventListener(CLIENT_TOAST_EVENT, onClientToast)
	}, [])

	useEffect(() => {
		if (!current) return
		const timer = setTimeout(() => setCurrent(null), DISPLAY_MS)
		return () => clearTimeout(timer)
	}, [current])

	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (event.key === 'F8') {
				event.preventDefault()
				regionRef.current?.focus()
			}
		}
		window.addEventListener('keydown', onKey)
		return () => window.removeEventListener('keydown', onKey)
	}, [])

	return (
		<section
			ref={regionRef}
			data-live-region=""
			data-toast-room={roomKeptOn === key ? '' : undefined}
			tabIndex={-1}
			aria-label="Notifications (F8)"
			className="pointer-events-none fixed inset-x-0 z-50 flex flex-col items-center p-4 outline-none sm:items-end"
		>
			{current ? <ToastCard key={current.id} toast={current} onDismiss={() => setCurrent(null)} /> : null}
		</section>
	)
}

function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
	const destructive = toast.type === 'error'
	const hydrated = useHydrated()
	return (
		<div
			data-toast=""
			role={destructive ? 'alert' : 'status'}
			aria-live={destructive ? 'assertive' : 'polite'}
			className={cx(
				'toast-timed flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg',
				destructive ? 'border-red-800 bg-red-700 text-white' : 'border-gray-300 bg-white text-gray-900',
			)}
		>
			<div className="flex-1">
				{toast.title ? <p className="font-semibold">{toast.title}</p> : null}
				<p className="text-sm">{toast.description}</p>
			</div>
			{hydrated ? (
				<button
					type="button"
					onClick={onDismiss}
					className="pointer-events-auto -m-1 rounded p-1 text-lg leading-none"
					aria-label="Dismiss notification"
				>
					×
				</button>
			) : null}
		</div>
	)
}
