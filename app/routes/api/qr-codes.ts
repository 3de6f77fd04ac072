import { customizeCode, deleteCode, generateOrUpdateCode, getOwnedCode, listCodes } from '#app/domain/qr/manage.server.ts'
import { QR_MESSAGES } from '#app/domain/qr/messages.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { methodNotAllowed, readBody } from '#app/utils/api.server.ts'
import { json, pathId } from './profile-api.server.ts'
import { apiCode, CODE_NOT_FOUND, parseCodeRequest, parseCustomization, qrApi } from './qr-api.server.ts'
import type { Route } from './+types/qr-codes'

/** GET /api/qr-codes: the caller's codes, newest first; GET /api/qr-codes/{id}: one of them. */
export function loader({ request, params }: Route.LoaderArgs) {
	return qrApi(request, async (userId) => {
		if (params.id === undefined) return json((await listCodes(userId)).map(apiCode))
		return json(apiCode(await getOwnedCode(userId, pathId(params.id, CODE_NOT_FOUND))))
	})
}

/** POST /api/qr-codes generates or updates the profile's code; PATCH restyles and DELETE removes one code. */
export function action({ request, params }: Route.ActionArgs) {
	const allowed = params.id === undefined ? ['GET', 'POST'] : ['GET', 'PATCH', 'DELETE']
	if (!allowed.includes(request.method)) return methodNotAllowed(allowed)
	return qrApi(request, async (userId) => {
		if (params.id === undefined) return generate(userId, await readBody(request))
		const id = pathId(params.id, CODE_NOT_FOUND)
		if (request.method === 'DELETE') {
			await deleteCode(userId, id)
			return json({ success: true, message: QR_MESSAGES.deleted })
		}
		const body = await readBody(request)
		const given = Object.hasOwn(body, 'customization') ? body.customization : body
		// Fields left out keep their current values, so spec 002's preview-shaped body does not drop custom text.
		const current = (await getOwnedCode(userId, id)).customization
		const look = parseCustomization(given && typeof given === 'object' ? { ...current, ...given } : given)
		if (look instanceof Response) return look
		const code = await customizeCode(userId, id, look)
		return json({ ...apiCode(code), qrCodeSvg: renderQrSvg({ ...look, data: code.scanUrl }), message: QR_MESSAGES.updated })
	})
}

async function generate(userId: string, body: Record<string, unknown>) {
	const parsed = parseCodeRequest(body)
	if (parsed instanceof Response) return parsed
	const { code, isUpdated } = await generateOrUpdateCode(userId, parsed.profileId, parsed.customization)
	const qrCodeSvg = renderQrSvg({ ...parsed.customization, data: code.scanUrl })
	return json({ id: code.id, qrCodeSvg, isUpdated, message: isUpdated ? QR_MESSAGES.updated : QR_MESSAGES.generated }, isUpdated ? 200 : 201)
}
