import type { z } from 'zod'
import { DomainError } from '#app/utils/errors.ts'
import type { UploadPurpose } from '#app/domain/uploads/file-type.ts'
import { discardFiles, notUploaded, pendingUploadKey, storeFile, takeUpload, type TakenFile } from '#app/domain/uploads/pending.server.ts'
import { checkFile } from '#app/domain/uploads/uploads.server.ts'
import { db, type Executor } from '#db/client.ts'
import type { MedicalProfile } from '#db/schema.ts'
import { fullNameOf, settle, updateProfileFields, type ProfileValues } from './profiles.server.ts'
import { auditCaregiverRead } from './audit.server.ts'
import { profileAccess, type ProfileAccess } from './access.server.ts'
import { DNR_DOCUMENT_REQUIRED, type DNR_STATUSES, type DnrSchema, type InsurancePolicySchema } from './schemas.ts'
import { addRow, deleteRow, rowAccess, updateRow } from './sections.server.ts'
import { fileUrl } from './views.ts'
import { DNR_STATUS, Unlisted, type Sent } from './vocabularies.ts'

/**
 * What a file field is set to: a file the page has just stored, the URL of the person's waiting upload (or of the file
 * already in that place, which keeps it), or null to remove it.
 */
export type FileChoice = TakenFile | string | null

type Slot = { key: string | null; name?: string | null; url: string; purpose: UploadPurpose; field: string }
type Placed = { key: string; name: string; ext?: string; size?: number }

const samePath = (a: string, b: string) => {
	try {
		return new URL(a, 'http://localhost').pathname === b
	} catch {
		return false
	}
}

export const EARLIER_UPLOAD_OWN_ONLY = 'An upload kept earlier can go only on your own profiles: send the file itself with this change.'

/**
 * The file a slot holds after the choice: kept, replaced by an upload the person owns, or none. A caregiver's earlier
 * upload lies among their own files (and would go with their account): they send the file with the change instead.
 */
async function place(tx: Executor, access: ProfileAccess, choice: FileChoice, slot: Slot): Promise<Placed | null> {
	if (choice === null || choice === '') return null
	if (typeof choice !== 'string') return choice
	if (slot.key && samePath(choice, slot.url)) return { key: slot.key, name: slot.name ?? '' }
	if (access.role !== 'owner') throw new DomainError(403, EARLIER_UPLOAD_OWN_ONLY, slot.field)
	return takeUpload(tx, access.actorId, choice, slot.purpose, slot.field)
}

/**
 * Checks and stores a file sent with a page's form (refused on `field`), to be placed by a change below. It is kept
 * among the profile owner's files, whoever sends it: it stays with the profile, and goes with the owner's account.
 */
async function storeUpload(access: ProfileAccess, upload: unknown, purpose: UploadPurpose, field: string): Promise<TakenFile> {
	const file = await checkFile(access.actorId, upload, purpose, field)
	return { key: await storeFile(access.ownerId, purpose, file), name: file.name, ext: file.ext, size: file.size }
}

/**
 * Runs a change that places files, in one transaction. The files it replaced are removed once the database no longer
 * points at them; files the page stored for a change that failed are removed too.
 */
async function placing<T>(
	stored: Array<FileChoice | undefined>,
	change: (tx: Executor) => Promise<{ result: T; replaced: Array<string | null> }>,
) {
	let outcome: { result: T; replaced: Array<string | null> }
	try {
		outcome = await db.transaction(change)
	} catch (error) {
		await discardFiles(...stored.map((choice) => (choice && typeof choice === 'object' ? choice.key : null)))
		throw error
	}
	await discardFiles(...outcome.replaced)
	return outcome.result
}

const gone = (before: Array<string | null>, after: Array<string | null>) => before.filter((key) => key && !after.includes(key))

export type DnrChange = {
	/** Unlisted: a status outside the vocabulary, sent back as the profile holds it (kept), else refused. */
	status?: (typeof DNR_STATUSES)[number] | Unlisted | null
	document?: FileChoice
	documentName?: string | null
	documentDate?: string | null
	originalLocation?: string | null
}

/**
 * A change to a profile: what is left out stays as it is. `confirm`: the owner saved the profile, which confirms it as
 * current even when nothing in it changed.
 */
export type ProfileChange = { values?: Sent<ProfileValues>; picture?: FileChoice; dnr?: DnrChange; confirm?: boolean }
/** The request's fields that a refused file is reported on. */
export type ProfileFileFields = { picture: string; dnrDocument: string }
const API_FIELDS: ProfileFileFields = { picture: 'profilePictureUrl', dnrDocument: 'dnrDocumentUrl' }

const NAME_PARTS = ['firstName', 'middleName', 'lastName'] as const

export async function changeProfile(userId: string, profileId: number, change: ProfileChange, fields = API_FIELDS) {
	return placing([change.picture, change.dnr?.document], async (tx) => {
		const access = await profileAccess(userId, profileId, 'edit', tx)
		const current = access.profile
		const values: ProfileValues = { ...settle(change.values ?? {}, current), ...(change.confirm && { confirmedAt: new Date() }) }
		const name = fullNameOf({ ...current, ...values })
		if (name && NAME_PARTS.some((part) => Object.hasOwn(values, part))) values.fullName = name
		if (change.picture !== undefined) {
			const slot = {
				key: current.profilePictureKey,
				url: fileUrl('picture', profileId),
				purpose: 'picture',
				field: fields.picture,
			} as const
			values.profilePictureKey = (await place(tx, access, change.picture, slot))?.key ?? null
		}
		if (change.dnr) Object.assign(values, await dnrValues(tx, access, change.dnr, fields.dnrDocument))
		const profile = await updateProfileFields(userId, profileId, values, tx)
		const before = [current.profilePictureKey, current.dnrDocumentKey]
		return { result: profile, replaced: gone(before, [profile.profilePictureKey, profile.dnrDocumentKey]) }
	})
}

/** The status a DNR form sent back that it could not offer: still the profile's own, it stays. */
function keptStatus(current: MedicalProfile, sent: Unlisted) {
	if (current.dnrStatus !== sent.value) throw new DomainError(400, sent.message, 'dnrStatus')
	return current.dnrStatus
}

/** Spec 001 §4: DNR and POLST need a document; any other status (or none) clears the document with it. */
async function dnrValues(tx: Executor, access: ProfileAccess, change: DnrChange, field: string): Promise<ProfileValues> {
	const current = access.profile
	// The status held, read into the vocabulary: 'dnr' stored by an older version is DNR, and keeps its document.
	const held = DNR_STATUS.read(current.dnrStatus) ?? current.dnrStatus
	const status = change.status === undefined ? held : change.status instanceof Unlisted ? keptStatus(current, change.status) : change.status
	if (status !== 'DNR' && status !== 'POLST') {
		return { dnrStatus: status, dnrDocumentKey: null, dnrDocumentName: null, dnrDocumentDate: null, dnrOriginalLocation: null }
	}
	const slot = {
		key: current.dnrDocumentKey,
		name: current.dnrDocumentName,
		url: fileUrl('dnr', current.id),
		purpose: 'document',
		field,
	} as const
	const document =
		change.document === undefined
			? current.dnrDocumentKey && { key: current.dnrDocumentKey, name: current.dnrDocumentName ?? '' }
			: await place(tx, access, change.document, slot)
	if (!document) throw new DomainError(400, DNR_DOCUMENT_REQUIRED, field)
	const kept = document.key === current.dnrDocumentKey
	return {
		dnrStatus: status,
		dnrDocumentKey: document.key,
		dnrDocumentName: change.documentName || (kept ? current.dnrDocumentName : document.name) || document.name,
		...(change.documentDate !== undefined && { dnrDocumentDate: change.documentDate }),
		...(change.originalLocation !== undefined && { dnrOriginalLocation: change.originalLocation }),
	}
}

/** The page's photo: a new picture replaces the old one; a refused file is a DomainError on the `field` it came in. */
export async function uploadPicture(userId: string, profileId: number, upload: unknown, field = 'picture') {
	const access = await profileAccess(userId, profileId, 'edit')
	const picture = await storeUpload(access, upload, 'picture', field)
	await changeProfile(userId, profileId, { picture }, { picture: field, dnrDocument: field })
}

export async function removePicture(userId: string, profileId: number) {
	await changeProfile(userId, profileId, { picture: null })
}

const chosen = (upload: unknown): upload is File => upload instanceof File && upload.size > 0

/** The page's DNR form: a new upload, or the document already on file. */
export async function saveDnr(userId: string, profileId: number, dnr: z.output<typeof DnrSchema>, upload: unknown) {
	const needsDocument = dnr.dnrStatus === 'DNR' || dnr.dnrStatus === 'POLST'
	const access = await profileAccess(userId, profileId, 'edit')
	const document = needsDocument && chosen(upload) ? await storeUpload(access, upload, 'document', 'document') : undefined
	await changeProfile(
		userId,
		profileId,
		{
			dnr: {
				status: dnr.dnrStatus,
				document,
				documentDate: dnr.dnrDocumentDate ?? null,
				originalLocation: dnr.dnrOriginalLocation ?? null,
			},
		},
		{ picture: 'picture', dnrDocument: 'document' },
	)
}

/** Clearing removes the status and its document. */
export async function clearDnr(userId: string, profileId: number) {
	await changeProfile(userId, profileId, { dnr: { status: null } })
}

/**
 * Adds (no id, to `profileId`) or edits a policy; `policy` null changes only the card photo. The card photo: a file sent with the form (an empty file input keeps the old one),
 * a URL from /api/upload, null to remove it, or left out to keep it.
 */
export async function savePolicy(
	userId: string,
	profileId: number | null,
	policyId: number | null,
	policy: z.output<typeof InsurancePolicySchema> | null,
	card: unknown,
	field = 'cardFrontPhoto',
) {
	// Whose the card will be, asked before it is stored; asked again, under the row's lock, as the change is made.
	if (!policyId && !(profileId && policy)) throw new Error('A new policy needs its profile and its fields')
	const before = policyId ? (await rowAccess(userId, 'policies', policyId, 'edit')).access : await profileAccess(userId, profileId!, 'edit')
	const choice = await cardChoice(before, card, field)
	return placing([choice], async (tx) => {
		const previous = policyId ? (await rowAccess(userId, 'policies', policyId, 'edit', tx)).row : null
		const slot = {
			key: previous?.cardFrontPhotoKey ?? null,
			url: fileUrl('card', policyId ?? 0),
			purpose: 'insurance-card',
			field,
		} as const
		const cardKey = choice === undefined ? slot.key : ((await place(tx, before, choice, slot))?.key ?? null)
		let saved
		if (previous) saved = await updateRow(userId, 'policies', previous.id, { ...policy, cardFrontPhotoKey: cardKey }, tx)
		else if (profileId && policy) saved = await addRow(userId, 'policies', profileId, { ...policy, cardFrontPhotoKey: cardKey }, tx)
		else throw new Error('A new policy needs its profile and its fields')
		return { result: saved, replaced: gone([slot.key], [cardKey]) }
	})
}

async function cardChoice(access: ProfileAccess, card: unknown, field: string): Promise<FileChoice | undefined> {
	if (card instanceof File) return chosen(card) ? storeUpload(access, card, 'insurance-card', field) : undefined
	if (card === null || typeof card === 'string') return card
	if (card === undefined) return undefined
	throw new DomainError(400, notUploaded(field), field)
}

/** A card photo on its own for a saved policy (the JSON API's /api/upload with a policyId); it replaces the old one. */
export async function uploadCard(userId: string, policyId: number, upload: unknown, field = 'cardFrontPhoto') {
	await savePolicy(userId, null, policyId, null, upload, field)
}

export type DocumentDetails = { fileName?: string; description?: string }

/**
 * A medical document: a file sent with the page's form, or (the JSON API) the URL of the person's waiting upload.
 * Its type and size are the stored file's own, never the client's word.
 */
export async function addDocument(userId: string, profileId: number, document: unknown, details: DocumentDetails = {}) {
	const access = await profileAccess(userId, profileId, 'edit')
	if (typeof document === 'string' && access.role !== 'owner') throw new DomainError(403, EARLIER_UPLOAD_OWN_ONLY, 'fileUrl')
	const upload = typeof document === 'string' ? document : await storeUpload(access, document, 'document', 'document')
	return placing([upload], async (tx) => {
		const file = typeof upload === 'string' ? await takeUpload(tx, userId, upload, 'document', 'fileUrl') : upload
		const fileName = details.fileName || file.name
		const row = await addRow(
			userId,
			'documents',
			profileId,
			{
				fileName,
				fileType: file.ext,
				fileSize: file.size,
				storageKey: file.key,
				description: details.description || `Medical document: ${fileName}`,
			},
			tx,
		)
		return { result: row, replaced: [] }
	})
}

/** The stored file goes with the row (deleteRow removes it). */
export async function deleteDocument(userId: string, documentId: number) {
	await deleteRow(userId, 'documents', documentId)
}

/**
 * The storage key behind a file URL, if the caller may read the file: a file of a profile they own or that was shared
 * with them (a caregiver's read is recorded), or an upload of their own waiting to be used.
 */
export async function readableFileKey(userId: string, kind: string, id: number) {
	if (kind === 'picture' || kind === 'dnr') {
		const access = await profileAccess(userId, id, 'read')
		await auditCaregiverRead(access, kind === 'picture' ? 'picture' : 'DNR document')
		return kind === 'picture' ? access.profile.profilePictureKey : access.profile.dnrDocumentKey
	}
	if (kind === 'card' || kind === 'document') {
		const { row, access } = await rowAccess(userId, kind === 'card' ? 'policies' : 'documents', id, 'read')
		await auditCaregiverRead(access, `${kind === 'card' ? 'insurance card' : 'document'} #${id}`)
		return 'storageKey' in row ? row.storageKey : row.cardFrontPhotoKey
	}
	if (kind === 'upload') return pendingUploadKey(userId, id)
	return null
}
