import { uploadPicture } from '#app/domain/profiles/files.server.ts'
import { keepUpload } from '#app/domain/uploads/pending.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { fileUrl } from '#app/domain/profiles/views.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { json, profileApi, requiredId } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/upload-profile-picture'

/**
 * Multipart: picture (spec 001 §7) answers {url}, to send as profilePictureUrl (PATCH /api/medical-profile/{id}).
 * With medicalProfileId as well, the picture is saved on that profile at once.
 */
const api = resource<Route.ActionArgs>({
	POST: ({ request, context }) => {
		return profileApi({ request, context }, async (userId) => {
			const form = await readForm(request, uploadLimit('picture'))
			if (!form.ok) return jsonError(form.status, form.message)
			const picture = form.formData.get('picture')
			if (!form.formData.has('medicalProfileId')) return json(await keepUpload(userId, 'picture', picture, 'picture'), 201)
			const profileId = requiredId(form.formData.get('medicalProfileId'), 'medicalProfileId')
			await uploadPicture(userId, profileId, picture)
			return json({ url: fileUrl('picture', profileId) })
		})
	},
})

export const loader = api.loader
export const action = api.action
