import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { readPageForm, refusedAttempt } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { presentOrder } from '#app/domain/shop/order-view.server.ts'
import { findOrderForTracking, getOwnOrder } from '#app/domain/shop/orders.server.ts'
import { TRACKING_MESSAGES, TrackOrderSchema } from '#app/domain/shop/schemas.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { env } from '#app/utils/env.server.ts'
import { combineHeaders, pageUrl } from '#app/utils/http.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { filledHoneypot } from '#app/utils/honeypot.ts'

/**
 * A found order is shown at /order-tracking?number=…, to the browser that proved the e-mail (kept in its session,
 * never in the URL) or to the person who placed it.
 */
export async function trackingLoader({ request, context }: RequestArgs) {
	const number = pageUrl(request).searchParams.get('number')?.trim().toUpperCase() ?? ''
	const [session, user] = await Promise.all([getSession({ request, context }), getUser({ request, context })])
	let order = null
	if (number) {
		const proven = session.get('trackedOrder') as { number?: string; email?: string } | undefined
		const found =
			proven?.number === number && proven.email
				? await findOrderForTracking(number, proven.email)
				: user
					? await getOwnOrder(user.id, number)
					: null
		order = found ? await presentOrder(found) : null
	}
	return { number, email: user?.email ?? '', order, supportEmail: env.SUPPORT_EMAIL }
}

export async function trackingAction(request: Request, context: Readonly<RouterContextProvider>) {
	const form = await readPageForm(request)
	const submission = parseWithZod(form, { schema: TrackOrderSchema })
	if (submission.status !== 'success') {
		const numberMissing = Boolean(submission.error?.confirmationNumber)
		const toast = numberMissing
			? { type: 'error' as const, ...TRACKING_MESSAGES.numberRequired }
			: { type: 'error' as const, description: TRACKING_MESSAGES.emailRequired }
		return data({ result: submission.reply() }, { status: 400, headers: await actionToast(request, context, toast) })
	}
	const limited = await refusedAttempt('order-tracking', request, context)
	if (limited) {
		const toast = await actionToast(request, context, { type: 'error', description: TOO_MANY_ATTEMPTS })
		return data({ result: submission.reply({ formErrors: [TOO_MANY_ATTEMPTS] }) }, { status: 429, headers: combineHeaders(toast, limited) })
	}
	const { confirmationNumber, email } = submission.value
	// A bot is told what a wrong pair would tell it; no order is looked up.
	const order = filledHoneypot(form) ? null : await findOrderForTracking(confirmationNumber, email)
	if (!order) {
		// The same answer whether the number exists or not.
		const toast = { type: 'error' as const, ...TRACKING_MESSAGES.notFound }
		return data(
			{ result: submission.reply({ formErrors: [TRACKING_MESSAGES.notFound.description] }) },
			{ status: 404, headers: await actionToast(request, context, toast) },
		)
	}
	const session = await getSession({ request, context })
	session.set('trackedOrder', { number: order.confirmationNumber, email: order.customerEmail })
	return redirectWithToast(
		`/order-tracking?${new URLSearchParams({ number: order.confirmationNumber })}`,
		{ type: 'success', title: TRACKING_MESSAGES.found, description: `Order ${order.confirmationNumber} is shown below.` },
		{ headers: combineHeaders({ 'set-cookie': await sessionStorage.commitSession(session) }) },
	)
}
