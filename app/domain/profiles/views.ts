import type { ProfileDetail } from './profiles.server.ts'
import type { SectionRow } from './sections.server.ts'
import { listGender, readVocabularies, VOCABULARY_FIELDS } from './vocabularies.ts'

// The one public shape of a profile: the dashboard and the JSON API answer the same fields, each field with a
// vocabulary in its stored spelling (vocabularies.ts), whatever spelling it was saved in.

/** Storage keys never leave the server: files are reached through the owner-only /files route. */
export function fileUrl(kind: 'picture' | 'dnr' | 'card' | 'document', id: number) {
	return `/files/${kind}/${id}`
}

export function toProfileView(detail: ProfileDetail) {
	const { profilePictureKey, dnrDocumentKey, insurancePolicies, medicalDocuments, allergies, medicalConditions, ...rest } = detail
	return {
		...readVocabularies(rest, VOCABULARY_FIELDS.profile),
		profilePictureUrl: profilePictureKey ? fileUrl('picture', detail.id) : null,
		dnrDocumentUrl: dnrDocumentKey ? fileUrl('dnr', detail.id) : null,
		allergies: allergies.map(toAllergyView),
		medicalConditions: medicalConditions.map(toConditionView),
		insurancePolicies: insurancePolicies.map(toPolicyView),
		medicalDocuments: medicalDocuments.map(toDocumentView),
	}
}

/** An item of the profile list (GET /api/medical-profiles), gender spelled as spec 001 §3 lists it. */
export function toProfileListView<T extends { gender: string | null; relationshipToUser: string }>(item: T) {
	return { ...readVocabularies(item, VOCABULARY_FIELDS.profile), gender: listGender(item.gender) }
}

export function toAllergyView(allergy: SectionRow<'allergies'>) {
	return readVocabularies(allergy, VOCABULARY_FIELDS.allergy)
}

export function toConditionView(condition: SectionRow<'conditions'>) {
	return readVocabularies(condition, VOCABULARY_FIELDS.condition)
}

export function toPolicyView({ cardFrontPhotoKey, ...policy }: SectionRow<'policies'>) {
	return { ...readVocabularies(policy, VOCABULARY_FIELDS.policy), cardFrontPhotoUrl: cardFrontPhotoKey ? fileUrl('card', policy.id) : null }
}

export function toDocumentView({ storageKey: _key, ...doc }: SectionRow<'documents'>) {
	return { ...doc, fileUrl: fileUrl('document', doc.id) }
}
export type ProfileView = ReturnType<typeof toProfileView>
