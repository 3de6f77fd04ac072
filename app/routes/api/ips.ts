import { FHIR_JSON, profileIps } from '#app/domain/sharing/health-links.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { pathId, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/ips'

/** GET /api/medical-profiles/:id/ips: the profile's International Patient Summary (a FHIR R4 document Bundle), made now. Owner only. */
const api = resource<Route.ActionArgs>({
	GET: ({ request, context, params }) =>
		profileApi({ request, context }, async (userId) => {
			const bundle = await profileIps(userId, pathId(params.id, 'Profile not found'))
			return new Response(JSON.stringify(bundle), {
				headers: {
					'content-type': FHIR_JSON,
					'content-disposition': `attachment; filename="hmh-patient-summary-${params.id}.json"`,
					'cache-control': 'private, no-store',
				},
			})
		}),
})

export const loader = api.loader
export const action = api.action
