import { z } from 'zod'

/** Spec 002 §3: the three forms every account signs, in the order they are shown. */
export const CONSENT_TYPES = ['hipaa', 'terms', 'emergency_disclaimer'] as const
export type ConsentType = (typeof CONSENT_TYPES)[number]

export const CONSENT_TITLES: Record<ConsentType, string> = {
	hipaa: 'HIPAA-Style Medical Information Consent',
	terms: 'Terms of Service Agreement',
	emergency_disclaimer: 'Emergency Medical Disclaimer',
}

export const CONSENT_REQUIRED = 'Please agree to all required consents to continue.'
export const UNKNOWN_CONSENT_TYPE = 'Unknown consent type'
export const AGREEMENT_REQUIRED = 'Consent must be given by agreeing to the form'

export const ConsentTypeSchema = z.enum(CONSENT_TYPES, { error: UNKNOWN_CONSENT_TYPE })

/** POST /api/consent: one form, and only an agreement can be recorded. */
export const ConsentRecordSchema = z.object({
	consentType: ConsentTypeSchema,
	agreed: z.literal(true, { error: AGREEMENT_REQUIRED }),
})

/**
 * The consent page posts one tick box per form shown, named after its type and carrying the version of the text
 * the person read, so a text published meanwhile is never recorded as agreed unseen.
 */
const ShownVersion = z.coerce.number().int().positive().optional().catch(undefined)
export const ConsentFormSchema = z.object({ hipaa: ShownVersion, terms: ShownVersion, emergency_disclaimer: ShownVersion })

export const CONSENT_INTENTS = { agree: 'agree', dismissNotice: 'dismiss-notice' } as const
