import type { z } from 'zod'
import { newFileKey, storage } from '#app/adapters/storage.server.ts'
import { DomainError } from '#app/domain/errors.ts'
import { checkFile, type CheckedFile } from '#app/domain/uploads/uploads.server.ts'
import type { UploadPurpose } from '#app/domain/uploads/file-type.ts'
import { nullify, ownedProfile, updateProfileFields } from './profiles.server.ts'
import { DNR_DOCUMENT_REQUIRED, type DnrSchema, type InsurancePolicySchema } from './schemas.ts'
import { addRow, deleteRow, getRow, updateRow } from './sections.server.ts'

/** Stores a checked file under the owner's prefix; returns its key. */
async function store(userId: string, purpose: UploadPurpose, file: CheckedFile) {
	const key = newFileKey(userId, purpose, file.ext)
	await storage.put(key, file.bytes, file.mime)
	return key
}

/** Old files are removed only after the database no longer points at them. */
async function discard(...keys: Array<string | null | undefined>) {
	await Promise.all(keys.filter((k): k is string => Boolean(k)).map((k) => storage.delete(k)))
}

/** A new picture replaces the old one; a refused file is a DomainError on the `field` it came in. */
export async function uploadPicture(userId: string, profileId: number, upload: unknown, field = 'picture') {
	const profile = await ownedProfile(userId, profileId)
	const file = await checkFile(upload, 'picture', field)
	const key = await store(userId, 'picture', file)
	await updateProfileFields(userId, profileId, { profilePictureKey: key })
	await discard(profile.profilePictureKey)
}

export async function removePicture(userId: string, profileId: number) {
	const profile = await ownedProfile(userId, profileId)
	await updateProfileFields(userId, profileId, { profilePictureKey: null })
	await discard(profile.profilePictureKey)
}

const chosen = (upload: unknown): upload is File => upload instanceof File && upload.size > 0

/** Adds (no id) or edits a policy; a card photo, when one is sent, replaces the old one. */
export async function savePolicy(
	userId: string,
	profileId: number,
	policyId: number | null,
	policy: z.output<typeof InsurancePolicySchema>,
	card: unknown,
) {
	const previous = policyId ? await getRow(userId, 'policies', policyId) : null
	if (!previous) await ownedProfile(userId, profileId)
	const hasCard = chosen(card)
	const cardKey = hasCard
		? await store(userId, 'insurance-card', await checkFile(card, 'insurance-card', 'cardFrontPhoto'))
		: (previous?.cardFrontPhotoKey ?? null)
	const values = { ...policy, cardFrontPhotoKey: cardKey }
	const saved = previous ? await updateRow(userId, 'policies', previous.id, values) : await addRow(userId, 'policies', profileId, values)
	if (hasCard) await discard(previous?.cardFrontPhotoKey)
	return saved
}

/** A card photo on its own (the JSON API uploads it after creating the policy); it replaces the old one. */
export async function uploadCard(userId: string, policyId: number, upload: unknown, field = 'cardFrontPhoto') {
	const policy = await getRow(userId, 'policies', policyId)
	const key = await store(userId, 'insurance-card', await checkFile(upload, 'insurance-card', field))
	await updateRow(userId, 'policies', policyId, { cardFrontPhotoKey: key })
	await discard(policy.cardFrontPhotoKey)
}

/** DNR and POLST need a document: a new upload, or the one already on file. */
export async function saveDnr(userId: string, profileId: number, dnr: z.output<typeof DnrSchema>, upload: unknown) {
	const profile = await ownedProfile(userId, profileId)
	const { dnrStatus, dnrDocumentDate, dnrOriginalLocation } = dnr
	const needsDocument = dnrStatus === 'DNR' || dnrStatus === 'POLST'
	const hasUpload = chosen(upload)
	if (needsDocument && !hasUpload && !profile.dnrDocumentKey) throw new DomainError(400, DNR_DOCUMENT_REQUIRED, 'document')
	let document = { key: profile.dnrDocumentKey, name: profile.dnrDocumentName }
	if (needsDocument && hasUpload) {
		const file = await checkFile(upload, 'document', 'document')
		document = { key: await store(userId, 'document', file), name: file.name }
	}
	if (!needsDocument) document = { key: null, name: null }
	await updateProfileFields(userId, profileId, {
		dnrStatus,
		dnrDocumentKey: document.key,
		dnrDocumentName: document.name,
		dnrDocumentDate: needsDocument ? (dnrDocumentDate ?? null) : null,
		dnrOriginalLocation: needsDocument ? (dnrOriginalLocation ?? null) : null,
	})
	if (document.key !== profile.dnrDocumentKey) await discard(profile.dnrDocumentKey)
}

/** Clearing removes the status and its document. */
export async function clearDnr(userId: string, profileId: number) {
	const profile = await ownedProfile(userId, profileId)
	await updateProfileFields(userId, profileId, {
		...nullify({
			dnrStatus: undefined,
			dnrDocumentKey: undefined,
			dnrDocumentName: undefined,
			dnrDocumentDate: undefined,
			dnrOriginalLocation: undefined,
		}),
	})
	await discard(profile.dnrDocumentKey)
}

export async function uploadDocument(userId: string, profileId: number, upload: unknown) {
	await ownedProfile(userId, profileId)
	const file = await checkFile(upload, 'document', 'document')
	const key = await store(userId, 'document', file)
	try {
		const row = await addRow(userId, 'documents', profileId, {
			fileName: file.name,
			fileType: file.ext,
			fileSize: file.size,
			storageKey: key,
			description: `Medical document: ${file.name}`,
		})
		return row
	} catch (error) {
		await discard(key)
		throw error
	}
}

/** The stored file goes with the row (deleteRow removes it). */
export async function deleteDocument(userId: string, documentId: number) {
	await deleteRow(userId, 'documents', documentId)
}

/** The storage key behind a file URL, if the file is the caller's own. */
export async function ownedFileKey(userId: string, kind: string, id: number) {
	if (kind === 'picture' || kind === 'dnr') {
		const profile = await ownedProfile(userId, id)
		return kind === 'picture' ? profile.profilePictureKey : profile.dnrDocumentKey
	}
	if (kind === 'card') return (await getRow(userId, 'policies', id)).cardFrontPhotoKey
	if (kind === 'document') return (await getRow(userId, 'documents', id)).storageKey
	return null
}
