import { uploadPicture } from '#app/domain/profiles/files.server.ts'
import { fileUrl } from '#app/domain/profiles/views.ts'
import { json, uploadResource } from './profile-api.server.ts'

/**
 * Multipart: picture (spec 001 §7) answers {url}, to send as profilePictureUrl (PATCH /api/medical-profile/{id}).
 * With medicalProfileId as well, the picture is saved on that profile at once.
 */
const api = uploadResource('picture', async (userId, profileId, picture) => {
	await uploadPicture(userId, profileId, picture)
	return json({ url: fileUrl('picture', profileId) })
})

export const loader = api.loader
export const action = api.action
