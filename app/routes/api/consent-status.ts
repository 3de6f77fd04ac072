import { consentStatusBody, getConsentStatus } from '#app/domain/consent/consent.server.ts'
import { requireApiUserId } from '#app/utils/api.server.ts'
import type { Route } from './+types/consent-status'
import { resource } from '#app/utils/resource.server.ts'

const api = resource<Route.ActionArgs>({
	GET: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		return Response.json(consentStatusBody(await getConsentStatus(userId)), { headers: { 'cache-control': 'no-store' } })
	},
})

export const loader = api.loader
export const action = api.action
