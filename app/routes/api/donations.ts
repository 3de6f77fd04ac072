import { giftsOf, givenCents } from '#app/domain/giving/statements.server.ts'
import { requireApiUserId } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { json } from './profile-api.server.ts'
import type { Route } from './+types/donations'

/** GET /api/donations: the signed-in donor's confirmed gifts, newest first, each with its receipt number. */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, context }) => {
		const gifts = await giftsOf(await requireApiUserId({ request, context }))
		return json(
			gifts.map((gift) => ({
				id: gift.id,
				receipt: `D-${gift.id}`,
				paidAt: gift.paidAt.toISOString(),
				tier: gift.tier,
				status: gift.status,
				amountCents: gift.amountCents,
				feeCents: gift.feeCents,
				refundedCents: gift.refundedCents,
				givenCents: givenCents(gift),
				statement: `/dashboard/giving/statement/${gift.paidAt.getUTCFullYear()}`,
			})),
		)
	},
})

export const loader = api.loader
export const action = api.action
