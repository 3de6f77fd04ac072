import type { DashboardHandle } from '#app/ui/dashboard-chrome.ts'
import type { Route } from './+types/medical-info'
import { MedicalInfoScreen } from './medical-info-screen-lazy.ts'
import { medicalInfoAction, medicalInfoLoader } from './medical-info.server.ts'
import { CardDownloads } from '../../features/card-downloads/card-downloads-lazy.ts'
import { cardReadyProfiles } from '../../features/card-downloads/card-downloads.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	const [screen, cardReady] = await Promise.all([medicalInfoLoader({ request, context }), cardReadyProfiles({ request, context })])
	return { screen, cardReady }
}

export async function action({ request, context }: Route.ActionArgs) {
	return medicalInfoAction(request, context)
}

export default function MedicalInfo({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<main id="main" className="mx-auto max-w-4xl px-4 py-8">
			<h1 className="mb-5 text-2xl font-bold">Medical Information</h1>
			<MedicalInfoScreen data={loaderData.screen} failure={actionData ?? null} base="/medical-info" />
			<CardDownloads
				profiles={loaderData.screen.profile && loaderData.screen.role === 'owner' ? [loaderData.screen.profile] : []}
				ready={loaderData.cardReady}
				className="mt-5"
			/>
		</main>
	)
}

export const handle: DashboardHandle = { chrome: 'header' }

export const meta: Route.MetaFunction = () => pageMeta('Medical Information')
