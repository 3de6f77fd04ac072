import type { RouterContextProvider } from 'react-router'
import type { z } from 'zod'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { startPaymentIntent } from '#app/domain/giving/donations.server.ts'
import { AMOUNT_MESSAGES, type Donation } from '#app/domain/giving/schemas.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { jsonError, readBody, validationError } from '#app/utils/api.server.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { refusedAttempt } from '#app/utils/request.server.ts'
import { json } from './profile-api.server.ts'
import { log } from '#app/utils/log.server.ts'

/** Both payment-intent calls: the amount checked by the spec's rules, then a PaymentIntent for the signed-in or guest donor. */
export async function paymentIntentCall(
	{ request, context }: { request: Request; context: Readonly<RouterContextProvider> },
	schema: z.ZodType<Donation, unknown>,
) {
	const parsed = schema.safeParse(await readBody(request))
	if (!parsed.success) return validationError(parsed.error.issues)
	if (!paymentsEnabled()) return jsonError(503, 'Online giving is not set up on this server.')
	const limited = await refusedAttempt('donate', request, context)
	if (limited) return jsonError(429, TOO_MANY_ATTEMPTS)
	const user = await getUser({ request, context })
	try {
		return json(await startPaymentIntent(parsed.data, { userId: user?.id, email: user?.email }))
	} catch (error) {
		log.error({ err: error }, 'PaymentIntent not created')
		return jsonError(502, AMOUNT_MESSAGES.guestError.fallback)
	}
}
