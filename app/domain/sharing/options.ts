// What the SMART Health Link forms offer and say; no zod here, so the tab's markup stays light.

export const HEALTH_LINK_INTENTS = { create: 'shl-create', revoke: 'shl-revoke' } as const

export const EXPIRY_OPTIONS = [
	{ value: '1d', label: '1 day', seconds: 86_400 },
	{ value: '7d', label: '7 days', seconds: 7 * 86_400 },
	{ value: '30d', label: '30 days', seconds: 30 * 86_400 },
	{ value: '1y', label: '1 year', seconds: 365 * 86_400 },
	{ value: 'never', label: 'No expiry', seconds: null },
] as const
export type Expiry = (typeof EXPIRY_OPTIONS)[number]['value']
export const DEFAULT_EXPIRY: Expiry = '30d'

/** Active (not revoked, expired or locked) links per profile. */
export const MAX_ACTIVE_LINKS = 5
/** Wrong passcodes a link takes in its whole life, from anyone; then it is refused until the owner makes a new one. */
export const PASSCODE_ATTEMPTS = 10
export const LABEL_MAX = 80
export const PASSCODE_MIN = 4
export const PASSCODE_MAX = 64
export const RECIPIENT_MAX = 200

export const HEALTH_LINK_MESSAGES = {
	created: 'SMART Health Link created',
	revoked: 'SMART Health Link revoked: it no longer opens anything',
	tooMany: `A profile can have at most ${MAX_ACTIVE_LINKS} active SMART Health Links. Revoke one before making another.`,
	notFound: 'SMART Health Link not found',
} as const

export const IPS_DOWNLOAD_LABEL = 'Download International Patient Summary (FHIR JSON)'

export const ipsHref = (profileId: number) => `/api/medical-profiles/${profileId}/ips`

/** The forms of "Fill from a health summary" (/medical-info/import). */
export const IMPORT_INTENTS = { read: 'import-read', confirm: 'import-confirm' } as const
export const IMPORT_TITLE = 'Fill from a health summary'
export const importHref = (profileId: number) => `/medical-info/import?profile=${profileId}`
