import { uploadCard } from '#app/domain/profiles/files.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { fileUrl } from '#app/domain/profiles/views.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { json, profileApi, requiredId } from './profile-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/upload'

/**
 * The insurance card photo (multipart: file, type=insurance-card). The spec's client creates the policy
 * first, so the photo is stored as that policy's card and never as a file without an owner row.
 */
const api = resource<Route.ActionArgs>({
	POST: ({ request }) => {
		return profileApi(request, async (userId) => {
			const form = await readForm(request, uploadLimit('insurance-card'))
			if (!form.ok) return jsonError(form.status, form.message)
			if (form.formData.get('type') !== 'insurance-card') return jsonError(400, "Only type 'insurance-card' is supported")
			const policyId = requiredId(form.formData.get('policyId'), 'policyId')
			await uploadCard(userId, policyId, form.formData.get('file'), 'file')
			return json({ url: fileUrl('card', policyId) })
		})
	},
})

export const loader = api.loader
export const action = api.action
