import { z } from 'zod'
import { idSchema } from '#app/domain/profiles/schemas.ts'
import { BatchRequestSchema } from './batches/schemas.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { DEFAULT_TIME_RANGE, TIME_RANGES } from './time-range.ts'

export const INVALID_ADMIN_TOKEN = 'This admin token is not valid.'

/** The QR management tab's forms: fulfil a free-code request, or let an account make its own codes (or stop it). */
export const QrManagementActionSchema = z.discriminatedUnion(
	'intent',
	[
		z.object({
			intent: z.literal('fulfil'),
			requestId: idSchema('QR request not found'),
			// The list is read by parseCodeList, which keeps at most its first 2,000 characters.
			qrCodeIds: z.string().max(100_000).optional(),
			notify: z.literal('on').optional(),
		}),
		z.object({
			intent: z.literal('legacy'),
			userId: z.string({ error: 'Account not found' }).max(100, 'Account not found'),
			on: z.enum(['true', 'false']).default('false'),
			account: z.string().max(200).optional(),
		}),
	],
	{ error: UNKNOWN_ACTION },
)

/** The order page's forms: assign codes (the dialog's comma-separated text), remove one, mark the order shipped. */
export const OrderDetailActionSchema = z.discriminatedUnion(
	'intent',
	[
		// An empty list is the domain's refusal (Please enter valid QR code IDs.), beside the field.
		z.object({ intent: z.literal('assign'), qrCodeIds: z.string().default('') }),
		z.object({ intent: z.literal('unassign'), codeId: idSchema('That code is not on this order.') }),
		z.object({ intent: z.literal('ship') }),
	],
	{ error: UNKNOWN_ACTION },
)

/** The batch form: a file of new codes, or the calibration page (which prints no codes, so takes no quantity). */
export const BatchFormSchema = z.discriminatedUnion(
	'intent',
	[
		// A form without the button's value (submitted with Enter in some browsers) generates.
		BatchRequestSchema.extend({ intent: z.literal('generate').optional() }),
		BatchRequestSchema.omit({ count: true }).extend({ intent: z.literal('calibration') }),
	],
	{ error: UNKNOWN_ACTION },
)

/** The new-order alert's Dismiss: the newest order the owner saw (now, when that is not a time), and the page to go back to. */
export const OrdersSeenSchema = z.object({
	seenAt: z.coerce.date().catch(() => new Date()),
	redirectTo: z.string().optional().catch(undefined),
})

/** The header's Notify Recent Visitors: the range shown (the default one when it is not a range), and the page to go back to. */
export const NotifyVisitorsSchema = z.object({
	range: z.enum(TIME_RANGES).catch(DEFAULT_TIME_RANGE),
	redirectTo: z.string().optional().catch(undefined),
})

/** The owner panel's token form. Every try is counted, an empty one too, so nothing here refuses it. */
export const OwnerTokenSchema = z.object({ token: z.string({ error: INVALID_ADMIN_TOKEN }).optional() })
