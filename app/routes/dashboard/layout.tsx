import { Outlet, useRouteLoaderData } from 'react-router'
import { dashboardGate } from '#app/middleware/dashboard.server.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { env } from '#app/utils/env.server.ts'
import { DashboardHeader } from '#app/routes/dashboard/header.tsx'
import { DashboardTabs } from '#app/routes/dashboard/tabs.tsx'
import { GeneralErrorBoundary } from '#app/ui/error-boundary.tsx'
import { useDashboardChrome } from '#app/ui/dashboard-chrome.ts'
import { useViewFocus } from '#app/ui/use-view-focus.ts'
import type { Route } from './+types/layout'

export const middleware: Route.MiddlewareFunction[] = [dashboardGate]

export async function loader({ request, context }: Route.LoaderArgs) {
	const enabled = paymentsEnabled()
	return {
		user: await getUser({ request, context }),
		giving: { enabled, inPage: enabled && Boolean(env.STRIPE_PUBLISHABLE_KEY), supportEmail: env.SUPPORT_EMAIL },
	}
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
	const chrome = useDashboardChrome()
	const view = useViewFocus<HTMLDivElement>()
	if (!loaderData.user || chrome === 'none') return <Outlet />
	return (
		<div className="min-h-screen">
			<DashboardHeader user={loaderData.user} giving={loaderData.giving} />
			{chrome === 'tabs' ? <DashboardTabs /> : null}
			<div ref={view}>
				<Outlet />
			</div>
		</div>
	)
}

/** A missing record or a refusal inside the dashboard keeps the header, so the way back is where it always is. */
export function ErrorBoundary() {
	const data = useRouteLoaderData<typeof loader>('routes/dashboard/layout')
	return (
		<div className="min-h-screen">
			{data?.user ? <DashboardHeader user={data.user} giving={data.giving} /> : null}
			{data?.user ? <DashboardTabs /> : null}
			<GeneralErrorBoundary
				statusHandlers={{
					404: () => ({
						title: 'Not found',
						message: 'This page or record is not in your account. It may have been deleted.',
						back: { to: '/dashboard', label: 'Back to the dashboard' },
					}),
				}}
			/>
		</div>
	)
}
