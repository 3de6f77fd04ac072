import { addDocument } from '#app/domain/profiles/files.server.ts'
import { keepUpload } from '#app/domain/uploads/pending.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { toDocumentView } from '#app/domain/profiles/views.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { json, profileApi, requiredId } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/upload-document'

/**
 * Multipart: document (spec 001 §7) answers {url}, to send as a medical document's fileUrl or as dnrDocumentUrl.
 * With medicalProfileId as well, the document is added to that profile at once.
 */
const api = resource<Route.ActionArgs>({
	POST: ({ request, context }) => {
		return profileApi({ request, context }, async (userId) => {
			const form = await readForm(request, uploadLimit('document'))
			if (!form.ok) return jsonError(form.status, form.message)
			const document = form.formData.get('document')
			if (!form.formData.has('medicalProfileId')) return json(await keepUpload(userId, 'document', document, 'document'), 201)
			const profileId = requiredId(form.formData.get('medicalProfileId'), 'medicalProfileId')
			const { id, fileUrl, fileName, fileType, fileSize } = toDocumentView(await addDocument(userId, profileId, document))
			return json({ id, url: fileUrl, fileName, fileType, fileSize }, 201)
		})
	},
})

export const loader = api.loader
export const action = api.action
