import { isRouteErrorResponse, Link, useLocation, useRouteError, type ErrorResponse } from 'react-router'
import { isDatabaseOutage } from '#app/utils/database-outage.ts'
import { WRONG_METHOD_MESSAGE } from '#app/utils/http.ts'
import { isNetworkFailure } from '#app/utils/network-failure.ts'
import { OutageScreen } from './outage-screen.tsx'
import { buttonClass } from './forms.tsx'

export type StatusScreen = { title: string; message: string; back?: { to: string; label: string }; also?: { to: string; label: string } }
export type StatusHandlers = Partial<Record<number, (error: ErrorResponse) => StatusScreen>>

/** The route's message for expected statuses (a layout may word some itself); the spec's generic screen for anything else. */
export function GeneralErrorBoundary({ statusHandlers = {} }: { statusHandlers?: StatusHandlers }) {
	const error = useRouteError()
	const location = useLocation()
	if (isRouteErrorResponse(error) && error.status < 500) {
		const screen = statusHandlers[error.status]?.(error) ?? statusScreen(error)
		const back = screen.back ?? { to: '/', label: 'Go to the home page' }
		return (
			<main id="main" className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
				<h1 className="text-3xl font-bold text-gray-900">{screen.title}</h1>
				<p className="text-lg text-gray-700">{screen.message}</p>
				<Link to={back.to} className={buttonClass('primary')}>
					{back.label}
				</Link>
				{screen.also ? (
					<Link to={screen.also.to} className={buttonClass('secondary')}>
						{screen.also.label}
					</Link>
				) : null}
			</main>
		)
	}
	// The database did not answer (503, Retry-After): not a fault of the page; what a form sent is kept.
	if (isDatabaseOutage(error)) return <OutageScreen outage={error.data} />
	if (isNetworkFailure(error)) {
		// A page asked for while the connection was down: not a fault of the page, and trying again is the fix.
		return (
			<main
				id="main"
				role="alert"
				className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center"
			>
				<h1 className="text-3xl font-bold text-gray-900">No connection</h1>
				<p className="text-lg text-gray-700">
					This page could not be loaded: the server could not be reached. Check your connection, then try again.
				</p>
				<Link to={location.pathname + location.search} className={buttonClass('primary')}>
					Try Again
				</Link>
			</main>
		)
	}
	// The server logged it already (handleError); the browser reports it like any uncaught error.
	if (typeof document !== 'undefined') reportError(error)
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

function statusScreen(error: ErrorResponse): StatusScreen {
	if (error.status === 404) return { title: 'Page not found', message: 'We could not find the page you were looking for.' }
	// The router's own 405 carries a text for developers (naming the route's file): every 405 reads the same.
	if (error.status === 405) return { title: errorTitle(405), message: WRONG_METHOD_MESSAGE }
	const message = typeof error.data === 'string' ? error.data : (error.data?.message ?? 'This request could not be completed.')
	// A refusal may name one more way on (the admin area's door offers Admin Access, where a token is entered).
	const also = isLink(error.data?.link) ? error.data.link : undefined
	if (error.status === 403) return { title: 'Access Denied', message, back: { to: '/', label: 'Return to Home' }, also }
	return { title: errorTitle(error.status), message, also }
}

function isLink(value: unknown): value is { to: string; label: string } {
	const link = value as { to?: unknown; label?: unknown } | null | undefined
	return typeof link?.to === 'string' && link.to.startsWith('/') && typeof link.label === 'string'
}

function errorTitle(status: number) {
	if (status === 401) return 'Authentication Required'
	if (status === 403) return 'Access Denied'
	if (status === 429) return 'Too many attempts'
	return 'Request refused'
}
