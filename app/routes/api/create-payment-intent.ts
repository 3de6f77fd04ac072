import { CreatePaymentIntentSchema } from '#app/domain/giving/schemas.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/create-payment-intent'
import { paymentIntentCall } from './payment-intent.server.ts'

/** POST /api/create-payment-intent {amount (dollars), metadata}: a PaymentIntent for the guest checkout (spec 002 §7). */
const api = resource<Route.ActionArgs>({
	POST: (args) => paymentIntentCall(args, CreatePaymentIntentSchema),
})

export const loader = api.loader
export const action = api.action
