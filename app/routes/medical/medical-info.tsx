import { requireConsentedUser } from '#app/middleware/consent.server.ts'
import { DashboardHeader } from '#app/ui/dashboard-header.tsx'
import type { Route } from './+types/medical-info'
import { MedicalInfoScreen } from './medical-info-screen.tsx'
import { medicalInfoAction, medicalInfoLoader } from './medical-info.server.ts'
import type { Failure } from './screen-context.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireConsentedUser({ request, context })
	return { user, screen: await medicalInfoLoader({ request, context }) }
}

export async function action({ request, context }: Route.ActionArgs) {
	return medicalInfoAction(request, context)
}

export default function MedicalInfo({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<div className="min-h-screen">
			<DashboardHeader user={loaderData.user} />
			<main id="main" className="mx-auto max-w-4xl px-4 py-8">
				<h1 className="mb-5 text-2xl font-bold">Medical Information</h1>
				<MedicalInfoScreen data={loaderData.screen} failure={(actionData as Failure | undefined) ?? null} base="/medical-info" />
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Medical Information · Hit Me Helpers' }]
