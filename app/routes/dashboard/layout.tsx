import { Outlet, useMatches, useRouteLoaderData } from 'react-router'
import { dashboardGate } from '#app/middleware/dashboard.server.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { env } from '#app/utils/env.server.ts'
import { DashboardHeader } from '#app/routes/dashboard/header.tsx'
import { DashboardTabs } from '#app/routes/dashboard/tabs.tsx'
import { GeneralErrorBoundary } from '#app/ui/error-boundary.tsx'
import type { Route } from './+types/layout'

/** What a dashboard page shows around itself: the header and tabs (default), the header only, or nothing (print). */
export type DashboardHandle = { chrome?: 'tabs' | 'header' | 'none' }

export const middleware: Route.MiddlewareFunction[] = [dashboardGate]

export async function loader({ request, context }: Route.LoaderArgs) {
	const enabled = paymentsEnabled()
	return {
		user: await getUser({ request, context }),
		giving: { enabled, inPage: enabled && Boolean(env.STRIPE_PUBLISHABLE_KEY), supportEmail: env.SUPPORT_EMAIL },
	}
}

function useChrome() {
	const leaf = useMatches().at(-1)
	return (leaf?.handle as DashboardHandle | undefined)?.chrome ?? 'tabs'
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
	const chrome = useChrome()
	if (!loaderData.user || chrome === 'none') return <Outlet />
	return (
		<div className="min-h-screen">
			<DashboardHeader user={loaderData.user} giving={loaderData.giving} />
			{chrome === 'tabs' ? <DashboardTabs /> : null}
			<Outlet />
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
