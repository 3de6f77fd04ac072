// How the record of a profile's reads and changes reads to people (client-safe: pages import it).

/** One row of each medical section, named: the record's lines and the API's "… not found". */
export const SECTION_NOUNS = {
	contacts: 'Emergency contact',
	allergies: 'Allergy',
	medications: 'Medication',
	conditions: 'Medical condition',
	policies: 'Insurance policy',
	documents: 'Document',
} as const

const ACTIONS: Record<string, string> = {
	scan: 'Responder page opened',
	'scan-photo': 'Photo opened from the responder page',
	'scan-dnr': 'DNR document opened from the responder page',
	'profile-created': 'Profile created',
	'profile-updated': 'Profile changed',
	'profile-deleted': 'Profile deleted',
	'personal-info': 'Personal information saved',
	'review-confirmed': 'Confirmed as still correct',
	'shl-manifest': 'Summary opened with a SMART Health Link',
	'shl-refused': 'SMART Health Link refused: passcode missing or wrong',
	'shl-created': 'SMART Health Link created',
	'shl-revoked': 'SMART Health Link revoked',
	'caregiver-read': 'Opened by a caregiver',
	'caregiver-invited': 'Caregiver invited',
	'caregiver-joined': 'Caregiver accepted the invitation',
	'caregiver-revoked': 'Caregiver removed',
	'caregiver-left': 'Caregiver left',
}

const CHANGES: Record<string, string> = { added: 'added', changed: 'changed', removed: 'removed' }

export function auditActionLabel(action: string) {
	if (ACTIONS[action]) return ACTIONS[action]
	const [section, change] = action.split('-') as [string, string | undefined]
	const noun = (SECTION_NOUNS as Record<string, string>)[section]
	return noun && change && CHANGES[change] ? `${noun} ${CHANGES[change]}` : action
}

export const AUDIT_ROLE_LABELS = {
	owner: 'You (the account)',
	responder: 'Someone who scanned the code',
	link_preview: 'A link preview',
	link_recipient: 'Someone with a SMART Health Link',
	caregiver: 'A caregiver',
} as const
export const AUDIT_ROLE_LABELS_FOR_OWNER_AREA = {
	owner: "The profile's account",
	responder: 'Scanner',
	link_preview: 'Link preview',
	link_recipient: 'SMART Health Link holder',
	caregiver: 'Caregiver',
} as const

/** Who acted, for the record's "By": a caregiver by name and address, so the owner sees who changed what. */
export function auditActorLabel(
	entry: { actorRole: keyof typeof AUDIT_ROLE_LABELS; actorName?: string | null; actorEmail?: string | null },
	labels: Record<keyof typeof AUDIT_ROLE_LABELS, string> = AUDIT_ROLE_LABELS,
) {
	if (entry.actorRole !== 'caregiver') return labels[entry.actorRole]
	if (!entry.actorEmail) return `${labels.caregiver} (account deleted)`
	return `${labels.caregiver}: ${[entry.actorName, `<${entry.actorEmail}>`].filter(Boolean).join(' ')}`
}

/** `additionalNotes` → `additional notes`. */
export const fieldLabel = (field: string) => field.replace(/([A-Z])/g, ' $1').toLowerCase()

export const AUDIT_KINDS = ['read', 'change'] as const
export const AUDIT_KIND_LABELS = { read: 'Reads', change: 'Changes' } as const
