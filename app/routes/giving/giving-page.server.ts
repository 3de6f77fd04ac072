import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type RouterContextProvider } from 'react-router'
import { paymentsEnabled } from '#app/adapters/payments.server.ts'
import { startDonation } from '#app/domain/giving/donations.server.ts'
import { AMOUNT_MESSAGES, CUSTOM_TIER, DonateSchema, TIERS } from '#app/domain/giving/schemas.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { env } from '#app/utils/env.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { limitPageAttempt, readPageForm } from '#app/utils/request.server.ts'
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
export async function donationAction(args: { request: Request; context: Readonly<RouterContextProvider> }, page: GivingPage) {
	const { request, context } = args
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: DonateSchema })
	const user = await getUser(args)
	// The tier page words every refusal as one ('Error', its own description); the guest page titles the refusal's message.
	const toast = page === 'tier' ? AMOUNT_MESSAGES.tierError : AMOUNT_MESSAGES.guestError.title
	const cannotStart = page === 'tier' ? AMOUNT_MESSAGES.tierError.description : AMOUNT_MESSAGES.guestError.fallback
	try {
		// Said before sign-in is asked for: signing in would not make giving possible.
		if (!paymentsEnabled()) throw new DomainError(503, GIVING_UNAVAILABLE)
		if (page === 'tier' && !user) throw redirect(`/api/login?${new URLSearchParams({ redirectTo: choicePath(page, submission.payload) })}`)
		if (submission.status !== 'success') {
			// Beside the field the schema named (the amount, or the tier), under spec 002 §5's toast for the amount.
			const [field, messages] = Object.entries(submission.error ?? {}).find(([, m]) => m?.length) ?? ['customAmount', null]
			const message = messages?.[0] ?? AMOUNT_MESSAGES.invalid.description
			const tooLarge = submission.error?.customAmount?.[0] === AMOUNT_MESSAGES.tooLarge.description
			const refusal = new DomainError(400, message, field)
			return replyError(args, submission, refusal, { toast: tooLarge ? AMOUNT_MESSAGES.tooLarge : AMOUNT_MESSAGES.invalid })
		}
		// A bot is refused as when Checkout cannot start; nothing reaches Stripe.
		if (filledHoneypot(formData)) throw new DomainError(400, cannotStart)
		await limitPageAttempt('donate', request, context)
		const checkout = await startDonation(
			submission.value,
			{ userId: user?.id, email: user?.email },
			{
				successUrl: `${new URL('/donation-success', env.PUBLIC_URL)}?session_id={CHECKOUT_SESSION_ID}`,
				cancelUrl: new URL(choicePath(page, submission.payload), env.PUBLIC_URL).toString(),
			},
		).catch((error: unknown) => {
			log.error({ err: error }, 'donation Checkout Session not started')
			throw new DomainError(503, cannotStart)
		})
		return redirect(checkout.url, 303)
	} catch (error) {
		return replyError(args, submission, error, { toast })
	}
}

/** The page again with the donor's choice made, to come back to after signing in or leaving Stripe's page. */
function choicePath(page: GivingPage, typed: Record<string, unknown>) {
	const text = (value: unknown) => (typeof value === 'string' ? value : '')
	const tier = text(typed.tier).slice(0, 20)
	const amount = text(typed.customAmount).slice(0, 12)
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
