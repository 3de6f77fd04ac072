import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'

/** Navigations faster than this show nothing, so pages do not flash. */
const DELAY_MS = 400

/** A short loading state while a page loads or a form is sent; announced politely to screen readers. */
export function PendingIndicator() {
	const navigation = useNavigation()
	const pendingKey = navigation.state === 'idle' ? null : `${navigation.state}:${navigation.location.key}`
	const [shownKey, setShownKey] = useState<string | null>(null)
	useEffect(() => {
		if (!pendingKey) return
		const timer = setTimeout(() => setShownKey(pendingKey), DELAY_MS)
		return () => clearTimeout(timer)
	}, [pendingKey])
	const shown = pendingKey !== null && shownKey === pendingKey
	return (
		<div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 top-0 z-50 flex justify-center print:hidden">
			{shown ? (
				<>
					<span className="absolute inset-x-0 top-0 h-1 animate-pulse bg-brand-700" aria-hidden="true" />
					<span className="mt-3 rounded-full bg-gray-900 px-4 py-1.5 text-sm font-semibold text-white shadow-lg">
						{navigation.state === 'submitting' ? 'Sending...' : 'Loading...'}
					</span>
				</>
			) : null}
		</div>
	)
}
