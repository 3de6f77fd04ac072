import { uploadCard } from '#app/domain/profiles/files.server.ts'
import { keepUpload } from '#app/domain/uploads/pending.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { fileUrl } from '#app/domain/profiles/views.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { json, profileApi, requiredId } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/upload'

/**
 * The insurance card photo (spec 001 §7, multipart: file, type=insurance-card) answers {url}, to send as a policy's
 * cardFrontPhotoUrl. With policyId as well, it becomes that saved policy's card at once.
 */
const api = resource<Route.ActionArgs>({
	POST: ({ request, context }) => {
		return profileApi({ request, context }, async (userId) => {
			const form = await readForm(request, uploadLimit('insurance-card'))
			if (!form.ok) return jsonError(form.status, form.message)
			if (form.formData.get('type') !== 'insurance-card') return jsonError(400, "Only type 'insurance-card' is supported")
			const file = form.formData.get('file')
			if (!form.formData.has('policyId')) return json(await keepUpload(userId, 'insurance-card', file, 'file'), 201)
			const policyId = requiredId(form.formData.get('policyId'), 'policyId')
			await uploadCard(userId, policyId, file, 'file')
			return json({ url: fileUrl('card', policyId) })
		})
	},
})

export const loader = api.loader
export const action = api.action
