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

/** A SMART Health Link as pasted: the link, or a viewer's address with the link after its '#'. */
export const SHLINK_MAX = 4096
/** Ids a confirmation may name (more than MAX_ACCEPTED are refused with words by the domain). */
const ACCEPT_MAX = 1000

/**
 * Filling a profile from a health summary (JSON API): the Bundle itself, or a SMART Health Link made by this app and
 * its passcode; to confirm, the ids of the proposed items to add.
 */
export const ImportRequestSchema = z.object({
	bundle: z.unknown().optional(),
	shlink: z.string({ error: 'shlink must be text' }).max(SHLINK_MAX, `shlink must be at most ${SHLINK_MAX} characters`).optional(),
	passcode: z.string({ error: 'passcode must be text' }).max(PASSCODE_MAX, 'passcode is too long').optional(),
	accept: z
		.array(z.string({ error: 'accept must be a list of item ids' }).max(100, 'accept holds an id that is too long'), {
			error: 'accept must be a list of item ids',
		})
		.max(ACCEPT_MAX, `accept must name at most ${ACCEPT_MAX} ids`)
		.optional(),
})
export type ImportRequest = z.infer<typeof ImportRequestSchema>

const optionalText = (max: number, message: string) =>
	z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined)), z.string().max(max, message).optional())

/** The page's first form: a file (checked by the domain: size, then content), or a link and its passcode. */
export const ImportReadSchema = z.object({
	bundle: z.unknown().optional(),
	shlink: optionalText(SHLINK_MAX, `A SMART Health Link has at most ${SHLINK_MAX} characters`),
	// Not trimmed: a passcode is exactly what was typed.
	passcode: z.preprocess(
		(v) => (v === '' || v == null ? undefined : v),
		z.string().max(PASSCODE_MAX, `A passcode has at most ${PASSCODE_MAX} characters`).optional(),
	),
})

/** The review's form: the summary as read (carried back, read again) and the ids ticked. */
export const ImportConfirmSchema = z.object({
	bundle: z.string({ error: 'The summary was not sent back: read it again.' }),
	accept: z.array(z.string().max(100)).max(ACCEPT_MAX, `Tick at most ${ACCEPT_MAX} items`).default([]),
})
