import type { z } from 'zod'
import { validationError } from '#app/utils/api.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { pathId, profileApi } from './profile-api.server.ts'

/** A file made from medical data as it is now: downloaded, never kept by a browser or shared cache. */
export function cardDownload(body: Uint8Array, contentType: string, fileName: string) {
	return new Response(body as BodyInit, {
		headers: {
			'content-type': contentType,
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'private, no-store',
			'x-content-type-options': 'nosniff',
		},
	})
}

type Made = { body: Uint8Array; fileName: string }

/** GET /api/medical-profiles/:id/{file}?…: one of the owner's profiles made into a file now, as its query asks. */
export function cardResource<Query>(
	querySchema: z.ZodType<Query>,
	make: (userId: string, profileId: number, query: Query) => Promise<Made>,
	contentType: string,
) {
	return resource<RequestArgs & { params: { id?: string } }>({
		GET: ({ request, context, params }) =>
			profileApi({ request, context }, async (userId) => {
				const profileId = pathId(params.id, 'Profile not found')
				const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
				if (!query.success) return validationError(query.error.issues)
				const file = await make(userId, profileId, query.data)
				return cardDownload(file.body, contentType, file.fileName)
			}),
	})
}
