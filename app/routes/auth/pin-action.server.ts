import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { PinSchema } from '#app/domain/accounts/schemas.ts'
import { checkPin, claimValidatedPin } from '#app/domain/claims/claims.server.ts'
import { claimToast } from '../claims/claim-toast.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { actionToast, createToastHeaders } from '#app/utils/toast.server.ts'
import { combineHeaders } from '#app/utils/http.ts'
import { PIN_INTENT } from './pin-intent.ts'

/** The PIN card, wherever it is: validate, remember as pending, then sign in (or claim, when signed in). */
export async function pinAction(request: Request, context: Readonly<RouterContextProvider>, formData: FormData) {
	const submission = parseWithZod(formData, { schema: PinSchema })
	const session = await getSession(request)
	const userId = session.get('userId')
	const address = getClientIp(request, context)
	const check = await checkPin(formData.get('pin'), { userId, address })
	if (!check.valid) {
		const result = submission.reply({ fieldErrors: { pin: [check.message] } })
		const headers = await actionToast(request, context, { type: 'error', title: 'Invalid PIN', description: check.message })
		return data({ intent: PIN_INTENT, result }, { status: check.status, headers })
	}
	if (userId) {
		const toast = await createToastHeaders(claimToast(await claimValidatedPin({ userId, address }, check.pin)))
		return redirect(`/claim/${check.pin}`, { headers: toast })
	}
	session.set('pendingPin', check.pin)
	const cookie = await sessionStorage.commitSession(session)
	const toast = await createToastHeaders({ description: 'Please create an account or sign in to claim your QR code' })
	return redirect('/api/login', { headers: combineHeaders({ 'set-cookie': cookie }, toast) })
}
