import { profilesWithCardCode } from '#app/domain/cards/cards.server.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'

/** For a tab's loader: which of the person's profiles have a code their wallet card and lock screen can carry. */
export async function cardReadyProfiles(args: RequestArgs) {
	return profilesWithCardCode(await requireUserId(args))
}
