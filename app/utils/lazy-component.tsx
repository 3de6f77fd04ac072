import { Suspense, use, useEffect, useState, type ComponentType } from 'react'

// Mounts before the first commit are hydrating the server's HTML; later ones are client renders.
let hydrating = true

/**
 * A component whose code is a chunk of its own, so it is not part of any page's first load. The server loads it at
 * start and renders it in place: the HTML is whole without JavaScript. In the browser, a page whose HTML holds it
 * starts fetching the chunk as soon as its modules run (`name` marks it in the HTML), and hydration keeps that HTML
 * (plain forms and links that already work) until the chunk arrives, while the rest of the page hydrates. Mounted
 * later (a client navigation, a dialog opening), it is fetched then, or earlier on `preload()`, and has no boundary of
 * its own, so the navigation waits for the chunk rather than showing a gap.
 */
export function lazyComponent<P extends object>(name: string, load: () => Promise<ComponentType<P>>) {
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
	// In the browser, after the first paint, so the page's own HTML and images go first.
	else if (typeof document !== 'undefined' && document.querySelector(`template[data-lazy="${name}"]`))
		requestAnimationFrame(() => setTimeout(preload))

	function Loaded(props: P) {
		const Component = use(preload())
		return <Component {...props} />
	}
	function Lazy(props: P) {
		// Not useHydrated: its re-render after hydration would reach a boundary still waiting for its chunk, and React
		// would then throw the server's HTML away and show the empty fallback.
		const [ownBoundary] = useState(() => import.meta.env.SSR || hydrating)
		useEffect(() => {
			hydrating = false
		}, [])
		return ownBoundary ? (
			<>
				<template data-lazy={name} />
				<Suspense fallback={null}>
					<Loaded {...props} />
				</Suspense>
			</>
		) : (
			<Loaded {...props} />
		)
	}
	return Object.assign(Lazy, { preload })
}
