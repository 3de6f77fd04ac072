/**
 * Fixed values of text columns that pages offer or read too. Plain constants that import nothing, so a module the
 * browser loads may take them without bringing the schema along; the tables' CHECKs are made from the same lists.
 */

/** Spec 002 §3: the three forms every account signs, in the order they are shown. */
export const CONSENT_TYPES = ['hipaa', 'terms', 'emergency_disclaimer'] as const

/** Spec 000 §9: how an order may be shipped (which of them a country offers: app/domain/shop/shipping.ts). */
export const SHIPPING_METHODS = ['standard', 'express', 'overnight'] as const

/** What a caregiver may do with a profile shared with them: change its medical information, or only read it. */
export const CAREGIVER_ROLES = ['editor', 'viewer'] as const
