import { STANDARD_FEE } from './payment-methods.ts'

// Spec 002 §3, §5: the donation tiers and the amount rules. Client-safe.

export const TIERS = [
	{ id: 'supporter', name: 'Supporter', amount: 5 },
	{ id: 'advocate', name: 'Advocate', amount: 15 },
	{ id: 'champion', name: 'Champion', amount: 50 },
] as const
export const CUSTOM_TIER = 'custom'

export const MIN_DONATION = 1
export const MAX_DONATION = 10_000

export const AMOUNT_MESSAGES = {
	invalid: { title: 'Invalid Amount', description: 'Please enter a valid donation amount of at least $1.' },
	tooLarge: { title: 'Amount Too Large', description: 'Please contact us directly for donations over $10,000.' },
	tierError: { title: 'Error', description: 'Failed to process donation. Please try again.' },
	guestError: { title: 'Donation Error', fallback: 'Failed to create payment intent' },
} as const

/** What a tier gives, in cents: its preset amount, or the custom amount typed; null when that is not an amount. */
export function tierCents(tier: string, customAmount = '') {
	const preset = TIERS.find((t) => t.id === tier)
	return preset ? preset.amount * 100 : dollarsToCents(customAmount)
}

/** Spec 002 §5's message for an amount in cents out of range, or null when it may be given. */
export function amountProblem(cents: number) {
	if (cents < MIN_DONATION * 100) return AMOUNT_MESSAGES.invalid.description
	if (cents > MAX_DONATION * 100) return AMOUNT_MESSAGES.tooLarge.description
	return null
}

/**
 * What to charge so that `netCents` arrives after the card fee (2.9% + 30 cents): ⌈(net + 30) / (1 − 2.9%)⌉, in
 * whole cents, worked in integers so that no rounding of 0.971 can shave a cent.
 */
export function grossToCoverFees(netCents: number) {
	const keepPerThousand = 1000 - STANDARD_FEE.percent * 10
	return Math.ceil(((netCents + STANDARD_FEE.fixedCents) * 1000) / keepPerThousand)
}

export function formatDollars(cents: number) {
	return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' })
}

/** Spec 000/002: the monthly plans. A plan is a way to give monthly: nothing is withheld from anyone without one. */
export const PLANS = [
	{ id: 'basic', name: 'Basic', cents: 499, description: 'Keeps one person’s emergency information online and printed.' },
	{ id: 'premium', name: 'Premium', cents: 999, description: 'Prints and mails free QR codes for people who ask for one.' },
	{ id: 'family', name: 'Family', cents: 1999, description: 'For a household of up to 6 profiles: the codes for a whole family.' },
] as const
export type PlanId = (typeof PLANS)[number]['id']
export const planById = (id: string | null | undefined) => PLANS.find((plan) => plan.id === id)

const DOLLARS = /^\d{1,7}(\.\d{1,2})?$/

/** A whole number of cents from '15', '15.5' or '15.50'; null when it is not an amount of dollars and cents. */
export function dollarsToCents(value: string) {
	const text = value.trim().replace(/^\$/, '')
	if (!DOLLARS.test(text)) return null
	const [whole, fraction = ''] = text.split('.')
	return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}
