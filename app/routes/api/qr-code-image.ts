import { recordQrDownload } from '#app/domain/analytics/analytics.server.ts'
import { z } from 'zod'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { codeImage, type Shape } from '#app/domain/qr/manage.server.ts'
import { qrFileName } from '#app/domain/qr/render.server.ts'
import { jsonError, requireApiUserId } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/qr-code-image'

const QuerySchema = z.object({
	shape: z.enum(['circular', 'square']).optional(),
	format: z.enum(['png', 'svg']).default('png'),
	size: z.coerce.number().int().min(120).max(1000).default(400),
})

/** GET /api/qr-codes/:id/image (inline thumbnail) and /download (a file named by shape, id and date). Owner only. */
const api = resource<Route.ActionArgs>({
	GET: async ({ request, context, params }) => {
		const userId = await requireApiUserId({ request, context })
		const id = IdSchema.safeParse(params.id)
		const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
		if (!id.success) return jsonError(404, 'QR code not found')
		if (!query.success) return jsonError(400, query.error.issues[0]?.message ?? 'Invalid query')
		const download = new URL(request.url).pathname.endsWith('/download')
		const format = download ? query.data.format : 'png'
		const { code, body } = await codeImage(
			userId,
			id.data,
			format,
			query.data.shape as Shape | undefined,
			download ? 800 : query.data.size,
			download,
		)
		if (download) await recordQrDownload(code.id, userId)
		const shape: Shape = query.data.shape ?? (code.customization.circular ? 'circular' : 'square')
		const name = qrFileName({ shape, id: code.id, date: new Date() }).replace(/\.png$/, `.${format}`)
		return new Response(body as BodyInit, {
			headers: {
				'content-type': format === 'png' ? 'image/png' : 'image/svg+xml; charset=utf-8',
				'content-disposition': download ? `attachment; filename="${name}"` : 'inline',
				'cache-control': download ? 'private, no-store' : 'private, max-age=60',
				'x-content-type-options': 'nosniff',
			},
		})
	},
})

export const loader = api.loader
export const action = api.action
