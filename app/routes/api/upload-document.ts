import { addDocument } from '#app/domain/profiles/files.server.ts'
import { toDocumentView } from '#app/domain/profiles/views.ts'
import { json, uploadResource } from './profile-api.server.ts'

/**
 * Multipart: document (spec 001 §7) answers {url}, to send as a medical document's fileUrl or as dnrDocumentUrl.
 * With medicalProfileId as well, the document is added to that profile at once.
 */
const api = uploadResource('document', async (userId, profileId, document) => {
	const { id, fileUrl, fileName, fileType, fileSize } = toDocumentView(await addDocument(userId, profileId, document))
	return json({ id, url: fileUrl, fileName, fileType, fileSize }, 201)
})

export const loader = api.loader
export const action = api.action
