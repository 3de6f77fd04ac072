import { z } from 'zod'
import { AGREEMENT_REQUIRED, CONSENT_TYPES, UNKNOWN_CONSENT_TYPE } from './consents.ts'

export * from './consents.ts'

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
