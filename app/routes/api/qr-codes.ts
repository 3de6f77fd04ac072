import { customizeCode, deleteCode, generateOrUpdateCode, getOwnedCode, listCodes } from '#app/domain/qr/manage.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { ownProfileId } from '#app/domain/profiles/profiles.server.ts'
import { jsonError, readBody } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { json, pathId, profileApi } from './profile-api.server.ts'
import { apiCode, CODE_NOT_FOUND, parseCodeRequest, parseCustomization } from './qr-api.server.ts'
import type { Route } from './+types/qr-codes'

/**
 * GET /api/qr-codes: the caller's codes, newest first; POST generates or updates a profile's code (profileId, or the own
 * profile).
 * GET /api/qr-codes/{id}: one of them; PATCH restyles it and DELETE removes it.
 */
const api = resource<Route.ActionArgs>(({ params }) => {
	if (params.id === undefined) {
		return {
			GET: ({ request, context }) => profileApi({ request, context }, async (userId) => json((await listCodes(userId)).map(apiCode))),
			POST: ({ request, context }) => profileApi({ request, context }, async (userId) => generate(userId, await readBody(request))),
		}
	}
	const id = params.id
	return {
		GET: ({ request, context }) =>
			profileApi({ request, context }, async (userId) => json(apiCode(await getOwnedCode(userId, pathId(id, CODE_NOT_FOUND))))),
		PATCH: ({ request, context }) =>
			profileApi({ request, context }, async (userId) => restyle(userId, pathId(id, CODE_NOT_FOUND), await readBody(request))),
		DELETE: ({ request, context }) =>
			profileApi({ request, context }, async (userId) => {
				await deleteCode(userId, pathId(id, CODE_NOT_FOUND))
				return json({ success: true, message: QR_MESSAGES.deleted })
			}),
	}
})

async function restyle(userId: string, id: number, body: Record<string, unknown>) {
	const given = Object.hasOwn(body, 'customization') ? body.customization : body
	// Fields left out keep their current values, so spec 002's preview-shaped body does not drop custom text.
	const current = (await getOwnedCode(userId, id)).customization
	const look = parseCustomization(given && typeof given === 'object' ? { ...current, ...given } : given)
	if (look instanceof Response) return look
	const code = await customizeCode(userId, id, look)
	return json({ ...apiCode(code), qrCodeSvg: renderQrSvg({ ...look, data: code.scanUrl }), message: QR_MESSAGES.updated })
}

async function generate(userId: string, body: Record<string, unknown>) {
	const parsed = parseCodeRequest(body)
	if (parsed instanceof Response) return parsed
	// Without a profileId the code is the person's own profile's, as the spec's client sends it.
	const profileId = parsed.profileId ?? (await ownProfileId(userId))
	if (!profileId) return jsonError(400, QR_MESSAGES.createProfileFirst, { errors: { profileId: [QR_MESSAGES.createProfileFirst] } })
	const { code, isUpdated } = await generateOrUpdateCode(userId, profileId, parsed.customization)
	const qrCodeSvg = renderQrSvg({ ...parsed.customization, data: code.scanUrl })
	return json(
		{ id: code.id, qrCodeSvg, isUpdated, message: isUpdated ? QR_MESSAGES.updated : QR_MESSAGES.generated },
		isUpdated ? 200 : 201,
	)
}

export const loader = api.loader
export const action = api.action
