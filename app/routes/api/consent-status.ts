import { consentStatusBody, getConsentStatus } from '#app/domain/consent/consent.server.ts'
import { requireApiUserId } from '#app/utils/api.server.ts'
import type { Route } from './+types/consent-status'

export async function loader({ request }: Route.LoaderArgs) {
	const userId = await requireApiUserId(request)
	return Response.json(consentStatusBody(await getConsentStatus(userId)), { headers: { 'cache-control': 'no-store' } })
}
