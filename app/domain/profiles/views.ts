import type { ProfileDetail } from './profiles.server.ts'
import type { SectionRow } from './sections.server.ts'

// The one public shape of a profile: the dashboard and the JSON API answer the same fields.

/** Storage keys never leave the server: files are reached through the owner-only /files route. */
export function fileUrl(kind: 'picture' | 'dnr' | 'card' | 'document', id: number) {
	return `/files/${kind}/${id}`
}

export function toProfileView(detail: ProfileDetail) {
	const { profilePictureKey, dnrDocumentKey, insurancePolicies, medicalDocuments, ...rest } = detail
	return {
		...rest,
		profilePictureUrl: profilePictureKey ? fileUrl('picture', detail.id) : null,
		dnrDocumentUrl: dnrDocumentKey ? fileUrl('dnr', detail.id) : null,
		insurancePolicies: insurancePolicies.map(toPolicyView),
		medicalDocuments: medicalDocuments.map(toDocumentView),
	}
}

export function toPolicyView({ cardFrontPhotoKey, ...policy }: SectionRow<'policies'>) {
	return { ...policy, cardFrontPhotoUrl: cardFrontPhotoKey ? fileUrl('card', policy.id) : null }
}

export function toDocumentView({ storageKey: _key, ...doc }: SectionRow<'documents'>) {
	return { ...doc, fileUrl: fileUrl('document', doc.id) }
}
export type ProfileView = ReturnType<typeof toProfileView>
