import { claimCode, type Claimant } from '#app/domain/claims/claims.server.ts'
import {
	deleteProfile,
	getProfileDetail,
	ownProfileId,
	savePersonalInfo,
	updateProfileFields,
} from '#app/domain/profiles/profiles.server.ts'
import { FamilyMemberSchema, NotesSchema, PersonalInfoSchema, ScanningSwitchSchema } from '#app/domain/profiles/schemas.ts'
import { toProfileView } from '#app/domain/profiles/views.ts'
import { jsonError, readBody, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { getClientIp } from '#app/utils/request.server.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import type { Route } from './+types/medical-profile'

const NOT_FOUND = 'Profile not found'
/** Any of these marks a POST as a new family member (spec 001 §7); otherwise it is the person's own profile. */
const FAMILY_FIELDS = ['fullName', 'relationshipToUser', 'pin']

/**
 * GET /api/medical-profile: the person's own profile; POST creates it (or a family member's, with a sticker's PIN).
 * GET, PUT, PATCH and DELETE /api/medical-profile/{id}: any of theirs.
 */
const api = resource<Route.ActionArgs>(({ params }) => {
	if (params.id === undefined) {
		return {
			GET: ({ request }) => profileApi(request, async (userId) => show(userId, await ownProfileId(userId))),
			POST: ({ request, context }) =>
				profileApi(request, async (userId) => create({ userId, address: getClientIp(request, context) }, await readBody(request))),
		}
	}
	const id = params.id
	return {
		GET: ({ request }) => profileApi(request, async (userId) => show(userId, pathId(id, NOT_FOUND))),
		PUT: ({ request }) => profileApi(request, async (userId) => update(userId, pathId(id, NOT_FOUND), await readBody(request))),
		PATCH: ({ request }) => profileApi(request, async (userId) => patch(userId, pathId(id, NOT_FOUND), await readBody(request))),
		DELETE: ({ request }) =>
			profileApi(request, async (userId) => {
				const profileId = pathId(id, NOT_FOUND)
				return json({ success: true, id: profileId, unlinkedQrCodes: await deleteProfile(userId, profileId) })
			}),
	}
})

async function show(userId: string, id: number | null) {
	const detail = id ? await getProfileDetail(userId, id) : null
	return detail ? json(toProfileView(detail)) : jsonError(404, NOT_FOUND)
}

async function create(claimant: Claimant, body: Record<string, unknown>) {
	const { userId } = claimant
	if (FAMILY_FIELDS.some((field) => Object.hasOwn(body, field))) {
		const parsed = FamilyMemberSchema.safeParse(body)
		if (!parsed.success) return validationError(parsed.error.issues)
		const { pin, ...member } = parsed.data
		const result = await claimCode(claimant, pin, { newProfile: member })
		if (!result.ok) return jsonError(result.status, result.message, { errors: { [result.field ?? 'pin']: [result.message] } })
		return json({ id: result.medicalProfileId, fullName: member.fullName }, 201)
	}
	const parsed = PersonalInfoSchema.safeParse(body)
	if (!parsed.success) return validationError(parsed.error.issues)
	const { created, profile } = await savePersonalInfo(userId, parsed.data)
	return json({ id: profile.id, fullName: profile.fullName }, created ? 201 : 200)
}

async function update(userId: string, id: number, body: Record<string, unknown>) {
	const parsed = PersonalInfoSchema.safeParse(body)
	if (!parsed.success) return validationError(parsed.error.issues)
	await savePersonalInfo(userId, parsed.data, id)
	return show(userId, id)
}

/** Scanning on or off, and the notes; as on the page, a notes change confirms the information. */
async function patch(userId: string, id: number, body: Record<string, unknown>) {
	const values: Parameters<typeof updateProfileFields>[2] = {}
	if (Object.hasOwn(body, 'isScannable')) {
		const scanning = ScanningSwitchSchema.safeParse(body)
		if (!scanning.success) return validationError(scanning.error.issues)
		values.isScannable = scanning.data.isScannable
	}
	if (Object.hasOwn(body, 'additionalNotes')) {
		const notes = NotesSchema.safeParse(body)
		if (!notes.success) return validationError(notes.error.issues)
		values.additionalNotes = notes.data.additionalNotes ?? null
	}
	if (Object.keys(values).length === 0) return jsonError(400, 'Send isScannable or additionalNotes')
	const profile = await updateProfileFields(userId, id, values)
	return json({ id: profile.id, isScannable: profile.isScannable, additionalNotes: profile.additionalNotes })
}

export const loader = api.loader
export const action = api.action
