import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { startDonation } from '#app/domain/giving/donations.server.ts'
import { AMOUNT_MESSAGES, CUSTOM_TIER, DonateSchema, TIERS } from '#app/domain/giving/schemas.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { env } from '#app/utils/env.server.ts'
import { combineHeaders } from '#app/utils/http.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { readPageForm, refusedAttempt } from '#app/utils/request.server.ts'
import { actionToast } from '#app/utils/toast.server.ts'
import { log } from '#app/utils/log.server.ts'
import { filledHoneypot } from '#app/utils/honeypot.ts'

export const GIVING_UNAVAILABLE = 'Online giving is not set up on this server.'

/**
 * Which page a one-off gift starts from. Spec 002 words their failures apart: the tier page ('Error') is for signed-in
 * donors and sends anyone else to sign in first; the guest page ('Donation Error') takes anyone.
 */
export type GivingPage = 'tier' | 'guest'
const PAGE_PATH = { tier: '/support', guest: '/donate' } as const

/** A one-off gift from a page's form: the amount checked by spec 002 §5, then a 303 to Stripe's Checkout page. */
export async function donationAction(
	{ request, context }: { request: Request; context: Readonly<RouterContextProvider> },
	page: GivingPage,
) {
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: DonateSchema })
	const user = await getUser({ request, context })
	const failure = (message?: string) =>
		page === 'tier'
			? AMOUNT_MESSAGES.tierError
			: { title: AMOUNT_MESSAGES.guestError.title, description: message ?? AMOUNT_MESSAGES.guestError.fallback }
	const fail = async (toast: { title: string; description: string }, status: number, result = submission.reply(), extra?: HeadersInit) => {
		const headers = await actionToast(request, context, { type: 'error', ...toast })
		return data({ result }, { status, headers: combineHeaders(headers, extra) })
	}
	// Said before sign-in is asked for: signing in would not make giving possible.
	if (!paymentsEnabled()) return fail(failure(GIVING_UNAVAILABLE), 503, submission.reply({ formErrors: [GIVING_UNAVAILABLE] }))
	if (page === 'tier' && !user) throw redirect(`/api/login?${new URLSearchParams({ redirectTo: choicePath(page, formData) })}`)
	if (submission.status !== 'success') {
		const message = submission.error?.customAmount?.[0] ?? AMOUNT_MESSAGES.invalid.description
		return fail(message === AMOUNT_MESSAGES.tooLarge.description ? AMOUNT_MESSAGES.tooLarge : AMOUNT_MESSAGES.invalid, 400)
	}
	// A bot is refused as when Checkout cannot start; nothing reaches Stripe.
	if (filledHoneypot(formData)) return fail(failure(), 400, submission.reply({ formErrors: [failure().description] }))
	const limited = await refusedAttempt('donate', request, context)
	if (limited) return fail(failure(TOO_MANY_ATTEMPTS), 429, submission.reply({ formErrors: [TOO_MANY_ATTEMPTS] }), limited)
	try {
		const checkout = await startDonation(
			submission.value,
			{ userId: user?.id, email: user?.email },
			{
				successUrl: `${new URL('/donation-success', env.PUBLIC_URL)}?session_id={CHECKOUT_SESSION_ID}`,
				cancelUrl: new URL(choicePath(page, formData), env.PUBLIC_URL).toString(),
			},
		)
		return redirect(checkout.url, 303)
	} catch (error) {
		log.error({ err: error }, 'donation Checkout Session not started')
		const toast = failure()
		return fail(toast, 503, submission.reply({ formErrors: [toast.description] }))
	}
}

/** The page again with the donor's choice made, to come back to after signing in or leaving Stripe's page. */
function choicePath(page: GivingPage, form: FormData) {
	const tier = String(form.get('tier') ?? '').slice(0, 20)
	const amount = String(form.get('customAmount') ?? '').slice(0, 12)
	const query = new URLSearchParams(tier ? { tier } : {})
	if (tier === 'custom' && amount) query.set('amount', amount)
	return `${PAGE_PATH[page]}${query.size ? `?${query}` : ''}`
}

/** What a giving page opens with: the choice (?tier=&amount=, as choicePath writes it; Advocate unless another is named) and how giving works here. */
export async function givingPageData({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
	const url = new URL(request.url)
	const asked = url.searchParams.get('tier') ?? ''
	const tier = [...TIERS.map((t) => t.id), CUSTOM_TIER].includes(asked) ? asked : 'advocate'
	return {
		tier,
		amount: tier === CUSTOM_TIER ? (url.searchParams.get('amount') ?? '').slice(0, 12) : '',
		enabled: paymentsEnabled(),
		inPage: paymentsEnabled() && Boolean(env.STRIPE_PUBLISHABLE_KEY),
		signedIn: Boolean(await getUser({ request, context })),
		supportEmail: env.SUPPORT_EMAIL,
	}
}
