import { lockScreen } from '#app/domain/cards/cards.server.ts'
import { LockScreenQuerySchema } from '#app/domain/cards/schemas.ts'
import { validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { cardDownload } from './card-download.server.ts'
import { pathId, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/lock-screen'

/** GET /api/medical-profiles/:id/lock-screen.png?w=&h=[&lang=][&code=]: the profile's lock-screen image, made now. Owner only. */
const api = resource<Route.ActionArgs>({
	GET: ({ request, context, params }) =>
		profileApi({ request, context }, async (userId) => {
			const profileId = pathId(params.id, 'Profile not found')
			const query = LockScreenQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
			if (!query.success) return validationError(query.error.issues)
			const image = await lockScreen(userId, profileId, query.data)
			return cardDownload(image.body, 'image/png', image.fileName)
		}),
})

export const loader = api.loader
export const action = api.action
