import type { ProfileDetail } from '#app/domain/profiles/profiles.server.ts'
import type { SectionRow } from '#app/domain/profiles/sections.server.ts'

/** Storage keys never leave the server: files are reached through the owner-only /files route. */
export function fileUrl(kind: 'picture' | 'dnr' | 'card' | 'document', id: number) {
	return `/files/${kind}/${id}`
}

export function toScreenProfile(detail: ProfileDetail) {
	const { profilePictureKey, dnrDocumentKey, insurancePolicies, medicalDocuments, ...rest } = detail
	return {
		...rest,
		profilePictureUrl: profilePictureKey ? fileUrl('picture', detail.id) : null,
		dnrDocumentUrl: dnrDocumentKey ? fileUrl('dnr', detail.id) : null,
		insurancePolicies: insurancePolicies.map(toScreenPolicy),
		medicalDocuments: medicalDocuments.map(toScreenDocument),
	}
}

export function toScreenPolicy({ cardFrontPhotoKey, ...policy }: SectionRow<'policies'>) {
	return { ...policy, cardFrontPhotoUrl: cardFrontPhotoKey ? fileUrl('card', policy.id) : null }
}

export function toScreenDocument({ storageKey: _key, ...doc }: SectionRow<'documents'>) {
	return { ...doc, fileUrl: fileUrl('document', doc.id) }
}
export type ScreenProfile = ReturnType<typeof toScreenProfile>
