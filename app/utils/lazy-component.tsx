import { Suspense, use, useState, type ComponentType } from 'react'
import { useHydrated } from './use-hydrated.ts'

/**
 * A component whose code is a chunk of its own, fetched when it first renders (or on `preload()`), so it is not part
 * of any page's first load. The server loads it at start and renders it in place: the HTML is whole without
 * JavaScript. During hydration the browser keeps that HTML (plain forms and links that already work) until the
 * chunk arrives, while the rest of the page hydrates. Mounted later (a client navigation, a dialog opening), it has
 * no boundary of its own, so the navigation waits for the chunk rather than showing a gap.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
	let loading: Promise<ComponentType<P>> | undefined
	function preload() {
		if (!loading) {
			const promise = load()
			// `use` reads a settled promise's status and value, so a loaded component renders without suspending.
			promise.then(
				(value) => Object.assign(promise, { status: 'fulfilled', value }),
				() => {
					if (loading === promise) loading = undefined
				},
			)
			loading = promise
		}
		return loading
	}
	if (import.meta.env.SSR) void preload()

	function Loaded(props: P) {
		const Component = use(preload())
		return <Component {...props} />
	}
	function Lazy(props: P) {
		const hydrated = useHydrated()
		const [hydrating] = useState(!hydrated)
		return hydrating ? (
			<Suspense fallback={null}>
				<Loaded {...props} />
			</Suspense>
		) : (
			<Loaded {...props} />
		)
	}
	return Object.assign(Lazy, { preload })
}
