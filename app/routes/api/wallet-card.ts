import { walletCard } from '#app/domain/cards/cards.server.ts'
import { WalletCardQuerySchema } from '#app/domain/cards/schemas.ts'
import { validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { cardDownload } from './card-download.server.ts'
import { pathId, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/wallet-card'

/** GET /api/medical-profiles/:id/wallet-card.pdf?lang=en|es|fr[&code=]: the profile's fold-in-half wallet card, made now. Owner only. */
const api = resource<Route.ActionArgs>({
	GET: ({ request, context, params }) =>
		profileApi({ request, context }, async (userId) => {
			const profileId = pathId(params.id, 'Profile not found')
			const query = WalletCardQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
			if (!query.success) return validationError(query.error.issues)
			const card = await walletCard(userId, profileId, query.data)
			return cardDownload(card.body, 'application/pdf', card.fileName)
		}),
})

export const loader = api.loader
export const action = api.action
