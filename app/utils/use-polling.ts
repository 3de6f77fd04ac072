import { useEffect } from 'react'
import { useRevalidator } from 'react-router'

/** Reloads the page's data every `ms` while the tab is visible (a hidden tab waits until it is shown again). */
export function usePolling(ms: number) {
	const { revalidate, state } = useRevalidator()
	useEffect(() => {
		const timer = setInterval(() => {
			if (document.visibilityState === 'visible' && state === 'idle') void revalidate()
		}, ms)
		return () => clearInterval(timer)
	}, [ms, revalidate, state])
}
