import { uploadDocument } from '#app/domain/profiles/files.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { toDocumentView } from '#app/domain/profiles/views.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { json, profileApi, requiredId } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/upload-document'

/** Multipart: document, medicalProfileId. */
const api = resource<Route.ActionArgs>({
	POST: ({ request }) => {
		return profileApi(request, async (userId) => {
			const form = await readForm(request, uploadLimit('document'))
			if (!form.ok) return jsonError(form.status, form.message)
			const profileId = requiredId(form.formData.get('medicalProfileId'), 'medicalProfileId')
			const { id, fileUrl, fileName, fileType, fileSize } = toDocumentView(
				await uploadDocument(userId, profileId, form.formData.get('document')),
			)
			return json({ id, url: fileUrl, fileName, fileType, fileSize }, 201)
		})
	},
})

export const loader = api.loader
export const action = api.action
