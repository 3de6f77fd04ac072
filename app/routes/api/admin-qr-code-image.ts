import { ownerCodeSvg } from '#app/domain/admin/owner-codes.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-qr-code-image'

/** GET /api/admin/qr-codes/:id/image: the order list's preview of any code (an SVG). */
const api = resource<Route.ActionArgs>({
	GET: async ({ params }) => {
		const id = IdSchema.safeParse(params.id)
		const svg = id.success ? await ownerCodeSvg(id.data) : null
		if (!svg) return jsonError(404, 'QR code not found')
		return new Response(svg, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'private, max-age=300' } })
	},
})
export const loader = api.loader
export const action = api.action
