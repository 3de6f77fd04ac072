import { z } from 'zod'
import type { QrBatchFormat } from '#db/schema/admin.ts'
import { MAX_BATCH } from '#app/domain/qr/batch.ts'
import { DEFAULT_LAYOUT_ID, layoutById, MAX_NUDGE_MM } from './layouts.ts'
import { INVALID_NUDGE, INVALID_QUANTITY, UNKNOWN_LAYOUT } from './messages.ts'

export { BATCH_DEFAULT_COUNT, INVALID_NUDGE, INVALID_QUANTITY, UNKNOWN_LAYOUT } from './messages.ts'

/** The database's list (db/schema/admin.ts), without loading drizzle into the browser; a test keeps the two equal. */
export const BATCH_FORMATS = ['png', 'docx', 'pdf', 'svg'] as const satisfies readonly QrBatchFormat[]
export type BatchFormat = (typeof BATCH_FORMATS)[number]

const DECIMAL = /^\s*[+-]?\d+(\.\d+)?\s*$/

/** A number, or a decimal written as text (form data); undefined when absent, NaN for anything else. */
function toNumber(value: unknown) {
	if (value === undefined || value === null || value === '') return undefined
	if (typeof value === 'number') return value
	if (typeof value === 'string' && DECIMAL.test(value)) return Number(value)
	return Number.NaN
}

const nudge = z.preprocess(
	(value) => toNumber(value) ?? 0,
	z.number({ error: INVALID_NUDGE }).int(INVALID_NUDGE).min(-MAX_NUDGE_MM, INVALID_NUDGE).max(MAX_NUDGE_MM, INVALID_NUDGE),
)

/**
 * The batch form and the JSON bodies (spec 002 §7: `{count}`, the format coming from the endpoint). Spec 002 §5: a
 * quantity from 1 to 1000, where anything non-numeric (or nothing at all) counts as 0 and is refused.
 */
export const BatchRequestSchema = z.object({
	count: z.preprocess(
		(value) => {
			const count = toNumber(value)
			return count === undefined || Number.isNaN(count) ? 0 : count
		},
		z.number({ error: INVALID_QUANTITY }).int(INVALID_QUANTITY).min(1, INVALID_QUANTITY).max(MAX_BATCH, INVALID_QUANTITY),
	),
	format: z.enum(BATCH_FORMATS, { error: 'Please choose a file format.' }).default('png'),
	layout: z
		.string({ error: UNKNOWN_LAYOUT })
		.trim()
		.default(DEFAULT_LAYOUT_ID)
		.refine((id) => layoutById(id) !== undefined, UNKNOWN_LAYOUT),
	nudgeXMm: nudge,
	nudgeYMm: nudge,
})

export type BatchRequest = z.infer<typeof BatchRequestSchema>
