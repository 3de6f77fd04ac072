import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

/**
 * For a layout whose views are pages of their own (tabs): after the script moves to another view, focus goes to that
 * view's first heading inside the returned ref's element, so a screen reader says where the person now is. A page load
 * (no script, or the first view) starts at the top as usual; a change of the query alone (a filter) leaves focus be.
 */
export function useViewFocus<T extends HTMLElement>() {
	const ref = useRef<T>(null)
	const { pathname } = useLocation()
	const shown = useRef(pathname)
	useEffect(() => {
		if (shown.current === pathname) return
		shown.current = pathname
		const heading = ref.current?.querySelector<HTMLElement>('h1, h2')
		if (!heading) return
		if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
		heading.focus()
	}, [pathname])
	return ref
}
