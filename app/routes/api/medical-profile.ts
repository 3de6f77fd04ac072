import type { z } from 'zod'
import { claimCode, type Claimant } from '#app/domain/claims/claims.server.ts'
import { changeProfile, type ProfileChange } from '#app/domain/profiles/files.server.ts'
import {
	deleteProfile,
	getProfileDetail,
	ownProfileId,
	savePersonalInfo,
	type ProfileValues,
} from '#app/domain/profiles/profiles.server.ts'
import { profileAccess } from '#app/domain/profiles/access.server.ts'
import { FamilyMemberSchema, PersonalInfoSchema, ProfileDetailExtrasSchema, type PersonalInfo } from '#app/domain/profiles/schemas.ts'
import { toProfileView } from '#app/domain/profiles/views.ts'
import { Unlisted } from '#app/domain/profiles/vocabularies.ts'
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
			GET: ({ request, context }) => profileApi({ request, context }, async (userId) => show(userId, await ownProfileId(userId))),
			POST: ({ request, context }) =>
				profileApi({ request, context }, async (userId) =>
					create({ userId, address: getClientIp(request, context) }, await readBody(request)),
				),
		}
	}
	const id = params.id
	return {
		GET: ({ request, context }) => profileApi({ request, context }, async (userId) => show(userId, pathId(id, NOT_FOUND))),
		PUT: ({ request, context }) =>
			profileApi({ request, context }, async (userId) => update(userId, pathId(id, NOT_FOUND), await readBody(request), 'PUT')),
		PATCH: ({ request, context }) =>
			profileApi({ request, context }, async (userId) => update(userId, pathId(id, NOT_FOUND), await readBody(request), 'PATCH')),
		DELETE: ({ request, context }) =>
			profileApi({ request, context }, async (userId) => {
				const profileId = pathId(id, NOT_FOUND)
				return json({ success: true, id: profileId, unlinkedQrCodes: await deleteProfile(userId, profileId) })
			}),
	}
})

async function show(userId: string, id: number | null) {
	const detail = id ? await getProfileDetail(userId, id, 'read') : null
	return detail ? json(toProfileView(detail)) : jsonError(404, NOT_FOUND)
}

async function create(claimant: Claimant, body: Record<string, unknown>) {
	const { userId } = claimant
	if (FAMILY_FIELDS.some((field) => Object.hasOwn(body, field))) {
		const parsed = FamilyMemberSchema.safeParse(body)
		if (!parsed.success) return validationError(parsed.error.issues)
		const { pin, ...member } = parsed.data
		const claimed = await claimCode(claimant, pin, { newProfile: member })
		return json({ id: claimed.medicalProfileId, fullName: member.fullName }, 201)
	}
	const parsed = PersonalInfoSchema.safeParse(body)
	if (!parsed.success) return validationError(parsed.error.issues)
	const { created, profile } = await savePersonalInfo(userId, parsed.data)
	return json({ id: profile.id, fullName: profile.fullName }, created ? 201 : 200)
}

/**
 * PUT and PATCH change the fields they send (null or an empty string clears one) and leave the rest as they are.
 * Spec 001 §7: PUT sends the detail fields, PATCH profilePictureUrl.
 */
async function update(userId: string, id: number, body: Record<string, unknown>, method: 'PUT' | 'PATCH') {
	const change = parseChange(body)
	if (!change.success) return validationError([...change.issues, ...(await unlistedIssues(userId, id, body))])
	const sent = Object.keys(body).some((field) => DETAIL_FIELDS.has(field))
	if (!sent && method === 'PATCH') return jsonError(400, 'Send at least one field of the profile')
	// Saving the detail form, even unchanged, is the owner confirming the profile as current.
	await changeProfile(userId, id, { ...change.data, confirm: method === 'PUT' })
	return show(userId, id)
}

/**
 * A refused change reports, with the schema's refusals, each value outside its field's vocabulary that the profile does
 * not hold (one it holds is kept; see Unlisted), so a client learns of every bad field at once.
 */
async function unlistedIssues(userId: string, id: number, body: Record<string, unknown>): Promise<z.core.$ZodIssue[]> {
	const current: Record<string, unknown> | null = await profileAccess(userId, id, 'edit').then(
		(access) => access.profile,
		() => null,
	)
	if (!current) return []
	const shapes: Record<string, z.ZodType> = { ...PersonalInfoSchema.shape, ...ProfileDetailExtrasSchema.shape }
	return Object.keys(body).flatMap((field) => {
		const parsed = shapes[field]?.safeParse(body[field])
		if (!parsed?.success || !(parsed.data instanceof Unlisted) || String(current[field]) === parsed.data.value) return []
		return [{ code: 'custom', path: [field], message: parsed.data.message, input: body[field] } as z.core.$ZodIssue]
	})
}

const DETAIL_FIELDS = new Set([...Object.keys(PersonalInfoSchema.shape), ...Object.keys(ProfileDetailExtrasSchema.shape)])

function parseChange(body: Record<string, unknown>) {
	const personal = PersonalInfoSchema.safeParse(body)
	const extras = ProfileDetailExtrasSchema.safeParse(body)
	if (!personal.success || !extras.success)
		return { success: false as const, issues: [...(personal.error?.issues ?? []), ...(extras.error?.issues ?? [])] }
	const sent = (field: string) => Object.hasOwn(body, field)
	const { profilePictureUrl, dnrStatus, dnrDocumentUrl, dnrDocumentName, additionalNotes, isScannable } = extras.data
	const values: ProfileValues = Object.fromEntries(
		Object.keys(PersonalInfoSchema.shape)
			.filter(sent)
			.map((field) => [field, personal.data[field as keyof PersonalInfo] ?? null]),
	)
	if (sent('additionalNotes')) values.additionalNotes = additionalNotes ?? null
	if (sent('isScannable')) values.isScannable = isScannable
	const dnrSent = ['dnrStatus', 'dnrDocumentUrl', 'dnrDocumentName'].some(sent)
	const change: ProfileChange = {
		values,
		...(sent('profilePictureUrl') && { picture: profilePictureUrl ?? null }),
		...(dnrSent && {
			dnr: {
				...(sent('dnrStatus') && { status: dnrStatus ?? null }),
				...(sent('dnrDocumentUrl') && { document: dnrDocumentUrl ?? null }),
				...(sent('dnrDocumentName') && { documentName: dnrDocumentName ?? null }),
			},
		}),
	}
	return { success: true as const, data: change }
}

export const loader = api.loader
export const action = api.action
