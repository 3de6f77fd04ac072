import { CreateDonationSchema } from '#app/domain/giving/schemas.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/create-donation'
import { paymentIntentCall } from './payment-intent.server.ts'

/** POST /api/create-donation {tierId, amount (cents)}: a PaymentIntent for the in-page checkout (spec 002 §7). */
const api = resource<Route.ActionArgs>({
	POST: (args) => paymentIntentCall(args, CreateDonationSchema),
})

export const loader = api.loader
export const action = api.action
