import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router'
import { isNetworkFailure } from '#app/utils/network-failure.ts'
import { buttonClass } from './forms.tsx'

/** The route's message for expected statuses; the spec's generic screen for anything else. */
export function GeneralErrorBoundary() {
	const error = useRouteError()
	const location = useLocation()
	if (isRouteErrorResponse(error) && error.status < 500) {
		const notFound = error.status === 404
		return (
			<main id="main" className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
				<h1 className="text-3xl font-bold text-gray-900">{notFound ? 'Page not found' : errorTitle(error.status)}</h1>
				<p className="text-lg text-gray-700">
					{notFound
						? 'We could not find the page you were looking for.'
						: typeof error.data === 'string'
							? error.data
							: (error.data?.message ?? 'This request could not be completed.')}
				</p>
				<Link to="/" className={buttonClass('primary')}>
					Go to the home page
				</Link>
			</main>
		)
	}
	if (isNetworkFailure(error)) {
		// A page asked for while the connection was down: not a fault of the page, and trying again is the fix.
		return (
			<main id="main" role="alert" className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
				<h1 className="text-3xl font-bold text-gray-900">No connection</h1>
				<p className="text-lg text-gray-700">This page could not be loaded: the server could not be reached. Check your connection, then try again.</p>
				<Link to={location.pathname + location.search} className={buttonClass('primary')}>
					Try Again
				</Link>
			</main>
		)
	}
	if (typeof document !== 'undefined' || import.meta.env.DEV) console.error(error)
	return (
		<main id="main" role="alert" className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
			<h1 className="text-3xl font-bold text-gray-900">Something went wrong</h1>
			<p className="text-lg text-gray-700">A React error occurred. Please reload the page.</p>
			<a href={location.pathname + location.search} className={buttonClass('primary')}>
				Reload Page
			</a>
		</main>
	)
}

function errorTitle(status: number) {
	if (status === 401) return 'Authentication Required'
	if (status === 403) return 'Access Denied'
	if (status === 429) return 'Too many attempts'
	return 'Request refused'
}
