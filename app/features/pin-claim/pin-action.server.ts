import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import { PinSchema } from '#app/domain/accounts/schemas.ts'
import { checkPin } from '#app/domain/claims/claims.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { getClientIp, type RequestArgs } from '#app/utils/request.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { createToastHeaders } from '#app/utils/toast.server.ts'
import { combineHeaders } from '#app/utils/http.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'

/** Spec 000: what a signed-in person is told on the way from a valid PIN to the claim page. */
export const PIN_VALIDATED = { title: 'PIN Validated', description: 'Redirecting to claim your QR code...' } as const

/**
 * The PIN card, wherever it is: validate, then (spec 000) signed in, on to /claim/{pin}, whose form asks whose
 * information the code will show; signed out, remember the PIN as pending and sign in.
 */
export async function pinAction(args: RequestArgs, formData: FormData) {
	const { request, context } = args
	const submission = parseWithZod(formData, { schema: PinSchema })
	const session = await getSession(args)
	const userId = session.get('userId')
	const address = getClientIp(request, context)
	// The format is checked with the rest of the rules, in their order (format, too many wrong PINs, unknown PIN).
	const check = await checkPin(submission.payload.pin, { userId, address })
	if (!check.valid) {
		const refusal = new DomainError(check.status, check.message, 'pin')
		return replyError({ request, context }, submission, refusal, { toast: 'Invalid PIN', extra: { intent: PIN_INTENT } })
	}
	if (userId) {
		// Not kept as pending: the claim page would claim a pending PIN at once, before the person chose a profile.
		const toast = await createToastHeaders({ type: 'success', ...PIN_VALIDATED })
		return redirect(`/claim/${check.pin}`, { headers: toast })
	}
	session.set('pendingPin', check.pin)
	const cookie = await sessionStorage.commitSession(session)
	const toast = await createToastHeaders({ description: 'Please create an account or sign in to claim your QR code' })
	return redirect('/api/login', { headers: combineHeaders({ 'set-cookie': cookie }, toast) })
}
