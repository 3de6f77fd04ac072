// How a profile is named in lists (spec 001 §2: name (relationship label), or 'Profile {id}'). A module of its own, free
// of zod and of the vocabularies, so the pages that only name profiles (QR codes, cards, claims) load nothing more.

/** The labels of a profile's relationship to the account holder (vocabularies.ts's RELATIONSHIP uses them). */
export const RELATIONSHIP_LABELS = { self: 'Yourself', child: 'Child', spouse: 'Spouse', partner: 'Partner', parent: 'Parent' } as const

export function profileLabel(profile: { id: number; fullName: string | null; relationshipToUser: string | null }) {
	// Read as the vocabulary reads it: any case, and a label as the value it labels ('Yourself' is self).
	const spelled = (profile.relationshipToUser ?? 'self').trim().toLowerCase()
	const label = Object.entries(RELATIONSHIP_LABELS).find(([value, text]) => value === spelled || text.toLowerCase() === spelled)?.[1]
	return profile.fullName ? `${profile.fullName} (${label ?? 'Family'})` : `Profile ${profile.id}`
}
