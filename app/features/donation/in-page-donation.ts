import { feeText, STANDARD_FEE } from '#app/domain/giving/payment-methods.ts'
import { AMOUNT_MESSAGES } from '#app/domain/giving/amounts.ts'
import type { Donation } from '#app/domain/giving/schemas.ts'

/** POST /api/create-donation, then /checkout with the PaymentIntent (spec 002 §7); or the message to show. */
export async function startInPage(gift: Donation): Promise<{ href: string } | { message: string }> {
	try {
		const response = await fetch('/api/create-donation', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ tierId: gift.tier, amount: gift.netCents, coverFees: gift.coverFees }),
		})
		const body = (await response.json()) as { clientSecret?: string; amountCents?: number; supportedMethods?: string[]; message?: string }
		if (!response.ok || !body.clientSecret || !body.amountCents) return { message: body.message ?? AMOUNT_MESSAGES.guestError.fallback }
		const params = new URLSearchParams({
			client_secret: body.clientSecret,
			amount: (body.amountCents / 100).toFixed(2),
			methods: (body.supportedMethods ?? []).join(','),
			fees: feeText(STANDARD_FEE),
		})
		return { href: `/checkout?${params}` }
	} catch {
		return { message: AMOUNT_MESSAGES.guestError.fallback }
	}
}
