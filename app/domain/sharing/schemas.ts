import { z } from 'zod'
import { DEFAULT_EXPIRY, EXPIRY_OPTIONS, LABEL_MAX, PASSCODE_MAX, PASSCODE_MIN, RECIPIENT_MAX } from './options.ts'

// Client-safe: the QR Codes tab's form and its action share the first (the profile's id, a hidden field, is checked as
// every id is); the manifest endpoint checks its body with the last.

const blankToUndefined = (v: unknown) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined))

export const HealthLinkSchema = z.object({
	label: z.preprocess(blankToUndefined, z.string().max(LABEL_MAX, `Please use at most ${LABEL_MAX} characters`).optional()),
	// Not trimmed: a passcode is exactly what was typed.
	passcode: z.preprocess(
		(v) => (v === '' || v == null ? undefined : v),
		z
			.string()
			.min(PASSCODE_MIN, `A passcode needs at least ${PASSCODE_MIN} characters`)
			.max(PASSCODE_MAX, `A passcode can have at most ${PASSCODE_MAX} characters`)
			.optional(),
	),
	expires: z.preprocess(
		(v) => (v === '' || v == null ? DEFAULT_EXPIRY : v),
		z.enum(
			EXPIRY_OPTIONS.map((o) => o.value),
			{ error: 'Please choose when the link expires' },
		),
	),
})
export type HealthLinkInput = z.infer<typeof HealthLinkSchema>

/** The SMART Health Links manifest request: who is asking (shown to the owner), the passcode, and the largest file to embed. */
export const ManifestRequestSchema = z.object({
	recipient: z
		.string({ error: 'recipient is required' })
		.trim()
		.min(1, 'recipient is required')
		.max(RECIPIENT_MAX, `recipient must be at most ${RECIPIENT_MAX} characters`),
	passcode: z.string({ error: 'passcode must be a string' }).max(PASSCODE_MAX, 'passcode is too long').optional(),
	embeddedLengthMax: z
		.number({ error: 'embeddedLengthMax must be a whole number' })
		.int('embeddedLengthMax must be a whole number')
		.min(0)
		.optional(),
})
export type ManifestRequest = z.infer<typeof ManifestRequestSchema>
