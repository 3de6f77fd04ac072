// What the pages need in the browser too, kept apart from the zod schemas so they do not bring zod along.

import { CONSENT_TYPES } from '#db/schema/values.ts'

// Spec 002 §3: the three forms every account signs, in the order they are shown (the consents table is held to them).
export { CONSENT_TYPES }
export type ConsentType = (typeof CONSENT_TYPES)[number]

export const CONSENT_TITLES: Record<ConsentType, string> = {
	hipaa: 'HIPAA-Style Medical Information Consent',
	terms: 'Terms of Service Agreement',
	emergency_disclaimer: 'Emergency Medical Disclaimer',
}

export const CONSENT_REQUIRED = 'Please agree to all required consents to continue.'
export const UNKNOWN_CONSENT_TYPE = 'Unknown consent type'
export const AGREEMENT_REQUIRED = 'Consent must be given by agreeing to the form'

export const CONSENT_INTENTS = { agree: 'agree', dismissNotice: 'dismiss-notice' } as const
