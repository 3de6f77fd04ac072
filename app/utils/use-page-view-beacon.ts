import { useEffect, useRef } from 'react'
import { useLocation, useMatches } from 'react-router'

/** The route's shape of a path: each parameter's value replaced by its name ('/claim/:pin'), so no token is reported. */
function patternOf(pathname: string, params: Record<string, string | undefined>) {
	const names = new Map(Object.entries(params).map(([name, value]) => [value, name]))
	return pathname
		.split('/')
		.map((segment) => {
			let value = segment
			try {
				value = decodeURIComponent(segment)
			} catch {
				// kept as it is
			}
			const name = names.get(value)
			return name ? (name === '*' ? ':rest' : `:${name}`) : segment
		})
		.join('/')
}

/**
 * A document load is counted on the server; a navigation the page's script makes is not a document load, so it is
 * reported here, without waiting for an answer. Polling and revalidation keep the location and report nothing.
 */
export function usePageViewBeacon() {
	const location = useLocation()
	const matches = useMatches()
	const reported = useRef(location.key)
	const params = matches.at(-1)?.params ?? {}
	useEffect(() => {
		if (reported.current === location.key) return
		reported.current = location.key
		const body = JSON.stringify({ path: patternOf(location.pathname, params) })
		if (navigator.sendBeacon?.('/api/page-view', new Blob([body], { type: 'application/json' }))) return
		void fetch('/api/page-view', { method: 'POST', body, headers: { 'content-type': 'application/json' }, keepalive: true }).catch(() => {})
		// Only a new location reports; the params belong to it.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [location.key])
}
