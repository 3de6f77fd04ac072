import { z } from 'zod'
import { ownerCodeImage } from '#app/domain/admin/owner-codes.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-qr-code-image'

const QuerySchema = z.object({
	format: z.enum(['png', 'svg']).optional(),
	size: z.coerce.number().int().min(120).max(1000).default(160),
})

/**
 * SVG only when asked for: ?format=svg, or an Accept that takes SVG and no PNG (a browser's image Accept names
 * image/svg+xml beside image/*, and gets the PNG the spec's client expects).
 */
function wantsSvg(format: 'png' | 'svg' | undefined, accept: string | null) {
	if (format) return format === 'svg'
	const types = (accept ?? '')
		.split(',')
		.map((part) => part.split(';'))
		.filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
		.map(([type]) => type!.trim().toLowerCase())
	return types.includes('image/svg+xml') && !types.some((type) => ['image/png', 'image/*', '*/*'].includes(type))
}

/** GET /api/admin/qr-codes/:id/image: any code's image for the order list, a PNG (?format=svg or Accept for an SVG). */
const api = resource<Route.ActionArgs>({
	GET: async (args) => {
		const owner = await requireGrantedOwner(args)
		const id = IdSchema.safeParse(args.params.id)
		const query = QuerySchema.safeParse(Object.fromEntries(new URL(args.request.url).searchParams))
		if (!id.success) return jsonError(404, 'QR code not found')
		if (!query.success) return jsonError(400, query.error.issues[0]?.message ?? 'Invalid query')
		const format = wantsSvg(query.data.format, args.request.headers.get('accept')) ? 'svg' : 'png'
		const body = await ownerCodeImage(id.data, format, owner.id, query.data.size)
		if (!body) return jsonError(404, 'QR code not found')
		return new Response(body as BodyInit, {
			headers: {
				'content-type': format === 'png' ? 'image/png' : 'image/svg+xml; charset=utf-8',
				'cache-control': 'private, max-age=300',
				vary: 'accept',
				'x-content-type-options': 'nosniff',
			},
		})
	},
})
export const loader = api.loader
export const action = api.action
