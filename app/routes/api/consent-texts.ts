import { currentConsentTexts } from '#app/domain/consent/consent.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/consent-texts'

/** The current text of each form by type. Public: the same words anyone is asked to agree to. */
const api = resource<Route.ActionArgs>({
	GET: async () => {
		const texts = await currentConsentTexts()
		return Response.json(Object.fromEntries(texts.map((t) => [t.consentType, t.body])), { headers: { 'cache-control': 'no-store' } })
	},
})

export const loader = api.loader
export const action = api.action
