import { previewCodeSvg } from '#app/domain/qr/manage.server.ts'
import { readBody } from '#app/utils/api.server.ts'
import { json, profileApi } from './profile-api.server.ts'
import { parseCodeRequest } from './qr-api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/qr-code-preview'

/** POST /api/qr-codes/preview: the customised code as SVG; nothing is stored. */
const api = resource<Route.ActionArgs>({
	POST: ({ request, context }) => {
		return profileApi({ request, context }, async (userId) => {
			const parsed = parseCodeRequest(await readBody(request), true)
			if (parsed instanceof Response) return parsed
			return json({ qrCodeSvg: await previewCodeSvg(userId, parsed.profileId, parsed.customization) })
		})
	},
})

export const loader = api.loader
export const action = api.action
