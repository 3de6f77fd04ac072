import { useEffect } from 'react'
import { data, Links, type ShouldRevalidateFunction, Outlet, Scripts, ScrollRestoration } from 'react-router'
import type { Route } from './+types/root'
import { getConsentNotice } from './middleware/consent.server.ts'
import { analyticsMiddleware } from './middleware/analytics.server.ts'
import { databaseOutageMiddleware, outageHeadersMiddleware } from './middleware/database-outage.server.ts'
import { requestScopeMiddleware } from './middleware/request-scope.server.ts'
import { securityMiddleware } from './middleware/security.server.ts'
import stylesUrl from './styles/app.css?url'
import { PageStyles } from './styles/page-styles.tsx'
import { BackgroundLogo } from './ui/background-logo.tsx'
import { CartSync } from './features/cart/cart-sync.tsx'
import { GeneralErrorBoundary } from './ui/error-boundary.tsx'
import { PageMeta } from './ui/forms.tsx'
import { PendingIndicator } from './ui/pending-indicator.tsx'
import { getCart } from './features/cart/cart-session.server.ts'
import { loadCartView } from './features/cart/checkout.server.ts'
import { CartDialog } from './features/cart/cart-dialog-lazy.ts'
import { getUser, userMiddleware } from './middleware/user.server.ts'
import { isCyberBannerHidden } from './utils/cyber-banner.server.ts'
import { combineHeaders, pageUrl } from './utils/http.ts'
import { lazyComponent } from './utils/lazy-component.tsx'
import { keepPageWhenUnreachable, type NetworkFailure } from './utils/network-failure.ts'
import { useNonce } from './utils/nonce-provider.ts'
import { usePageViewBeacon } from './utils/use-page-view-beacon.ts'
import { getToast, requestToastContext } from './utils/toast.server.ts'
import { SITE_NAME } from './utils/meta.ts'

const pageChrome = () => import('./page-chrome.ts')
const ConsentNotice = lazyComponent('consent-notice', () => pageChrome().then((module) => module.ConsentNotice))
const CyberBanner = lazyComponent('cyber-banner', () => pageChrome().then((module) => module.CyberBanner))
const Toaster = lazyComponent('toaster', () => pageChrome().then((module) => module.Toaster))

// The outage pair comes first: a request the database failed, in any later middleware too, is answered 503.
export const middleware: Route.MiddlewareFunction[] = [
	outageHeadersMiddleware,
	databaseOutageMiddleware,
	securityMiddleware,
	requestScopeMiddleware,
	userMiddleware,
	analyticsMiddleware,
]
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [keepPageWhenUnreachable]

export const links: Route.LinksFunction = () => [
	// Built pages carry the stylesheet in their head (PageStyles); in development Vite serves it as a file.
	...(import.meta.env.DEV ? [{ rel: 'stylesheet', href: stylesUrl }] : []),
	{ rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const [user, flash, cart] = await Promise.all([getUser({ request, context }), getToast(request), getCart({ request, context })])
	const toast = context.get(requestToastContext) ?? flash.toast
	const consentNotice = user ? await getConsentNotice(request, user.id) : null
	const hideCyberBanner = await isCyberBannerHidden(request.headers.get('cookie'))
	// The cart opens over whatever page asks for it, with or without JavaScript.
	const cartView = pageUrl(request).searchParams.get('cart') === 'open' ? await loadCartView({ request, context }) : null
	return data({ user, toast, consentNotice, hideCyberBanner, cart, cartView }, { headers: combineHeaders(flash.headers) })
}

/**
 * A failed action may carry a toast in its flash cookie: read it even though the action answered 4xx.
 * A submission that never reached the server has nothing to read, and reloading would fail the same way.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, actionResult, defaultShouldRevalidate }) =>
	formMethod ? !(actionResult as Partial<NetworkFailure> | undefined)?.networkFailure : defaultShouldRevalidate

export function Layout({ children }: { children: React.ReactNode }) {
	const nonce = useNonce()
	// Stylesheet rules written for pages without JavaScript (app.css) stop applying once it runs.
	useEffect(() => {
		document.documentElement.dataset.hydrated = ''
	}, [])
	return (
		<html lang="en" className="h-full">
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="theme-color" content="#b91c1c" />
				<PageMeta />
				<PageStyles nonce={nonce} />
				<Links />
			</head>
			<body className="min-h-full bg-gray-50 font-sans text-gray-900 antialiased">
				<a
					href="#main"
					className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
				>
					Skip to content
				</a>
				{children}
				<ScrollRestoration nonce={nonce} />
				<Scripts nonce={nonce} />
			</body>
		</html>
	)
}

export default function App({ loaderData }: Route.ComponentProps) {
	usePageViewBeacon()
	return (
		<>
			<BackgroundLogo />
			{loaderData.consentNotice ? <ConsentNotice notice={loaderData.consentNotice} /> : null}
			<Outlet />
			<CyberBanner hiddenByCookie={loaderData.hideCyberBanner} />
			<PendingIndicator />
			{loaderData.cartView ? <CartDialog view={loaderData.cartView} /> : null}
			<CartSync items={loaderData.cart} />
			<Toaster toast={loaderData.toast} />
		</>
	)
}

export const meta: Route.MetaFunction = () => [{ title: SITE_NAME }]

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
