import { z } from 'zod'
import { idSchema } from '#app/domain/profiles/schemas.ts'

export const UNKNOWN_ACTION = 'Unknown action: reload the page and try again.'

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
