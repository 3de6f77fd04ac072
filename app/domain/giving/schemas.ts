import { z } from 'zod'
import { amountProblem, AMOUNT_MESSAGES, CUSTOM_TIER, dollarsToCents, PLANS, tierCents, TIERS, type PlanId } from './amounts.ts'

export * from './amounts.ts'

const TIER_IDS: [string, ...string[]] = [CUSTOM_TIER, ...TIERS.map((tier) => tier.id)]
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
		const cents = tierCents(form.tier, form.customAmount)
		const message = cents === null ? AMOUNT_MESSAGES.invalid.description : amountProblem(cents)
		if (message || cents === null) {
			ctx.addIssue({ code: 'custom', message: message ?? AMOUNT_MESSAGES.invalid.description, path: ['customAmount'] })
			return z.NEVER
		}
		return { tier: form.tier, netCents: cents, coverFees: form.coverFees }
	})
export type Donation = z.output<typeof DonateSchema>

export const PLAN_REQUIRED = 'Please choose a plan'
const PLAN_IDS = PLANS.map((plan) => plan.id) as [PlanId, ...PlanId[]]
/** The monthly gift form (/subscribe): one of the plans, and whether the donor covers the card fee (the box ticked). */
export const SubscribeSchema = z.object({
	plan: z.enum(PLAN_IDS, { error: PLAN_REQUIRED }),
	coverFees: z.preprocess((v) => v === 'on', z.boolean()),
})

/** Your Giving's one button (change or cancel the monthly gift): it sends no fields. */
export const ManageGiftSchema = z.object({})

/** POST /api/create-donation (spec 002 §7): tierId and the amount in cents. */
export const CreateDonationSchema = z
	.object({
		tierId: z.enum(TIER_IDS, { error: 'Please choose an amount' }),
		amount: z.number({ error: AMOUNT_MESSAGES.invalid.description }).int(AMOUNT_MESSAGES.invalid.description),
		coverFees: z.boolean().optional(),
	})
	.transform((body, ctx) => {
		const message = amountProblem(body.amount)
		if (message) {
			ctx.addIssue({ code: 'custom', message, path: ['amount'] })
			return z.NEVER
		}
		return { tier: body.tierId, netCents: body.amount, coverFees: body.coverFees ?? false }
	})

/** POST /api/create-payment-intent (spec 002 §7): the amount in dollars, and what it is for. */
export const CreatePaymentIntentSchema = z
	.object({
		amount: z.union([z.number(), z.string().max(20)], { error: AMOUNT_MESSAGES.invalid.description }),
		metadata: z.object({ payment_type: z.string().max(40).optional(), donationType: z.string().max(40).optional() }).optional(),
		coverFees: z.boolean().optional(),
	})
	.transform((body, ctx) => {
		const cents = dollarsToCents(String(body.amount))
		const message = cents === null ? AMOUNT_MESSAGES.invalid.description : amountProblem(cents)
		if (message || cents === null) {
			ctx.addIssue({ code: 'custom', message: message ?? AMOUNT_MESSAGES.invalid.description, path: ['amount'] })
			return z.NEVER
		}
		return { tier: CUSTOM_TIER, netCents: cents, coverFees: body.coverFees ?? false }
	})
