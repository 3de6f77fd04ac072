import { z } from 'zod'
import { AMOUNT_MESSAGES, CUSTOM_TIER, MAX_DONATION, MIN_DONATION, TIERS } from './amounts.ts'

export * from './amounts.ts'

const TIER_IDS: [string, ...string[]] = [CUSTOM_TIER, ...TIERS.map((tier) => tier.id)]
const DOLLARS = /^\d{1,7}(\.\d{1,2})?$/

/** A whole number of cents from '15', '15.5' or '15.50'; null when it is not an amount of dollars and cents. */
export function dollarsToCents(value: string) {
	const text = value.trim().replace(/^\$/, '')
	if (!DOLLARS.test(text)) return null
	const [whole, fraction = ''] = text.split('.')
	return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

/**
 * The donate form: a tier's preset amount, or a custom one (spec 002 §5: at least $1, at most $10,000, in cents), and
 * whether the donor covers the card fee.
 */
export const DonateSchema = z
	.object({
		tier: z.enum(TIER_IDS, { error: 'Please choose an amount' }),
		customAmount: z.string().max(20, AMOUNT_MESSAGES.invalid.description).optional(),
		coverFees: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
	})
	.transform((form, ctx) => {
		const preset = TIERS.find((tier) => tier.id === form.tier)
		const cents = preset ? preset.amount * 100 : dollarsToCents(form.customAmount ?? '')
		const message =
			cents === null || cents < MIN_DONATION * 100
				? AMOUNT_MESSAGES.invalid.description
				: cents > MAX_DONATION * 100
					? AMOUNT_MESSAGES.tooLarge.description
					: null
		if (message || cents === null) {
			ctx.addIssue({ code: 'custom', message: message ?? AMOUNT_MESSAGES.invalid.description, path: ['customAmount'] })
			return z.NEVER
		}
		return { tier: form.tier, netCents: cents, coverFees: form.coverFees }
	})
export type Donation = z.output<typeof DonateSchema>
