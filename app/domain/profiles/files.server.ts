import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { newFileKey, storage } from '#app/adapters/storage.server.ts'
import { checkFormFile, type CheckedFile } from '#app/domain/uploads/uploads.server.ts'
import type { UploadPurpose } from '#app/domain/uploads/file-type.ts'
import type { ToastInput } from '#app/utils/toast.ts'
import { nullify, ownedProfile, updateProfileFields } from './profiles.server.ts'
import { DNR_DOCUMENT_REQUIRED, DnrSchema, InsurancePolicySchema } from './schemas.ts'
import { addRow, deleteRow, getRow, updateRow, type SectionRow } from './sections.server.ts'

type Reply = SubmissionResult<string[]>
type Outcome<T = object> = ({ ok: true } & T) | { ok: false; message: string; reply: Reply; toast?: ToastInput; status: 400 | 413 }

const failure = (field: string, message: string, toast?: ToastInput, status: 400 | 413 = 400): Outcome<never> => ({
	ok: false,
	message,
	reply: { status: 'error', error: { [field]: [message] } } as Reply,
	toast,
	status,
})

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

export async function uploadPicture(userId: string, profileId: number, formData: FormData): Promise<Outcome> {
	const profile = await ownedProfile(userId, profileId)
	const file = await checkFormFile(formData, 'picture', 'picture')
	if (!file.ok) return failure('picture', file.message, undefined, file.status)
	const key = await store(userId, 'picture', file)
	await updateProfileFields(userId, profileId, { profilePictureKey: key })
	await discard(profile.profilePictureKey)
	return { ok: true }
}

export async function removePicture(userId: string, profileId: number): Promise<Outcome> {
	const profile = await ownedProfile(userId, profileId)
	await updateProfileFields(userId, profileId, { profilePictureKey: null })
	await discard(profile.profilePictureKey)
	return { ok: true }
}

/** Adds (no id) or edits a policy; an optional card photo replaces the old one. */
export async function savePolicy(userId: string, profileId: number, policyId: number | null, formData: FormData): Promise<Outcome<{ policy: SectionRow<'policies'> }>> {
	const submission = parseWithZod(formData, { schema: InsurancePolicySchema })
	if (submission.status !== 'success') return { ok: false, message: 'Invalid policy', reply: submission.reply(), status: 400 }
	const previous = policyId ? await getRow(userId, 'policies', policyId) : null
	if (!previous) await ownedProfile(userId, profileId)
	const hasCard = formData.get('cardFrontPhoto') instanceof File && (formData.get('cardFrontPhoto') as File).size > 0
	let cardKey = previous?.cardFrontPhotoKey ?? null
	if (hasCard) {
		const file = await checkFormFile(formData, 'cardFrontPhoto', 'insurance-card')
		if (!file.ok) return { ok: false, message: file.message, reply: submission.reply({ fieldErrors: { cardFrontPhoto: [file.message] } }), status: file.status }
		cardKey = await store(userId, 'insurance-card', file)
	}
	const values = { ...submission.value, cardFrontPhotoKey: cardKey }
	const policy = previous ? await updateRow(userId, 'policies', previous.id, values) : await addRow(userId, 'policies', profileId, values)
	if (hasCard) await discard(previous?.cardFrontPhotoKey)
	return { ok: true, policy }
}

/** A card photo on its own (the JSON API uploads it after creating the policy); it replaces the old one. */
export async function uploadCard(userId: string, policyId: number, formData: FormData, field = 'cardFrontPhoto'): Promise<Outcome> {
	const policy = await getRow(userId, 'policies', policyId)
	const file = await checkFormFile(formData, field, 'insurance-card')
	if (!file.ok) return failure(field, file.message, undefined, file.status)
	const key = await store(userId, 'insurance-card', file)
	await updateRow(userId, 'policies', policyId, { cardFrontPhotoKey: key })
	await discard(policy.cardFrontPhotoKey)
	return { ok: true }
}

/** DNR and POLST need a document: a new upload, or the one already on file. */
export async function saveDnr(userId: string, profileId: number, formData: FormData): Promise<Outcome> {
	const profile = await ownedProfile(userId, profileId)
	const submission = parseWithZod(formData, { schema: DnrSchema })
	if (submission.status !== 'success') return { ok: false, message: 'Invalid DNR status', reply: submission.reply(), status: 400 }
	const { dnrStatus, dnrDocumentDate, dnrOriginalLocation } = submission.value
	const needsDocument = dnrStatus === 'DNR' || dnrStatus === 'POLST'
	const upload = formData.get('document')
	const hasUpload = upload instanceof File && upload.size > 0
	if (needsDocument && !hasUpload && !profile.dnrDocumentKey)
		return failure('document', DNR_DOCUMENT_REQUIRED, { title: 'Document Required', description: DNR_DOCUMENT_REQUIRED })
	let document = { key: profile.dnrDocumentKey, name: profile.dnrDocumentName }
	if (needsDocument && hasUpload) {
		const file = await checkFormFile(formData, 'document', 'document')
		if (!file.ok) return failure('document', file.message, { title: 'Upload Failed', description: 'Failed to upload document. Please try again.' }, file.status)
		document = { key: await store(userId, 'document', file), name: file.name }
	}
	if (!needsDocument) document = { key: null, name: null }
	await updateProfileFields(userId, profileId, {
		dnrStatus,
		dnrDocumentKey: document.key,
		dnrDocumentName: document.name,
		dnrDocumentDate: needsDocument ? (dnrDocumentDate ?? null) : null,
		dnrOriginalLocation: needsDocument ? (dnrOriginalLocation ?? null) : null,
		confirmedAt: new Date(),
	})
	if (document.key !== profile.dnrDocumentKey) await discard(profile.dnrDocumentKey)
	return { ok: true }
}

/** Clearing removes the status and its document. */
export async function clearDnr(userId: string, profileId: number): Promise<Outcome> {
	const profile = await ownedProfile(userId, profileId)
	await updateProfileFields(userId, profileId, {
		...nullify({ dnrStatus: undefined, dnrDocumentKey: undefined, dnrDocumentName: undefined, dnrDocumentDate: undefined, dnrOriginalLocation: undefined }),
		confirmedAt: new Date(),
	})
	await discard(profile.dnrDocumentKey)
	return { ok: true }
}

export async function uploadDocument(userId: string, profileId: number, formData: FormData): Promise<Outcome<{ id: number; document: SectionRow<'documents'> }>> {
	await ownedProfile(userId, profileId)
	const file = await checkFormFile(formData, 'document', 'document')
	if (!file.ok) return failure('document', file.message, undefined, file.status)
	const key = await store(userId, 'document', file)
	try {
		const row = await addRow(userId, 'documents', profileId, {
			fileName: file.name,
			fileType: file.ext,
			fileSize: file.size,
			storageKey: key,
			description: `Medical document: ${file.name}`,
		})
		return { ok: true, id: row.id, document: row }
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

