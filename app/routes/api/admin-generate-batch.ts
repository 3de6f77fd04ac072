import { generateBatch } from '#app/domain/admin/batches/batches.server.ts'
import { BatchRequestSchema, type BatchFormat } from '#app/domain/admin/batches/schemas.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { jsonError, readBody } from '#app/utils/api.server.ts'
import { fileResponse } from '#app/utils/download.server.ts'
import { pageUrl } from '#app/utils/http.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/admin-generate-batch'

/** The endpoint names the format (spec 002 §7): batch = PNG ZIP, word = docx, pdf, svg = SVG ZIP. */
const FORMATS: Record<string, BatchFormat> = { batch: 'png', word: 'docx', pdf: 'pdf', svg: 'svg' }

/** POST /api/admin/generate-qr-{batch|word|pdf|svg} { count } → the file; on error `{ message }`. */
const api = resource<Route.ActionArgs>({
	POST: async (args) => {
		const owner = await requireGrantedOwner(args)
		const format = FORMATS[pageUrl(args.request).pathname.replace('/api/admin/generate-qr-', '')]
		if (!format) return jsonError(404, 'Not found')
		const parsed = BatchRequestSchema.safeParse({ ...(await readBody(args.request)), format })
		if (!parsed.success) return jsonError(400, parsed.error.issues[0]!.message)
		return fileResponse((await generateBatch({ ...parsed.data, createdByUserId: owner.id })).file)
	},
})
export const loader = api.loader
export const action = api.action
