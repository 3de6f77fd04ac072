import { DomainError } from '#app/utils/errors.ts'
import { data } from 'react-router'
import { storage } from '#app/adapters/storage.server.ts'
import { readableFileKey } from '#app/domain/profiles/files.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { uploadedFileResponse } from '#app/utils/download.server.ts'
import type { Route } from './+types/files'

const KINDS = new Set(['picture', 'dnr', 'card', 'document', 'upload'])

/** Private files, served only to their owner; another person's id is a 404, never the file. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
	const userId = await requireUserId({ request, context })
	const id = IdSchema.safeParse(params.id)
	if (!KINDS.has(params.kind) || !id.success) throw data('Not found', { status: 404 })
	let key: string | null
	try {
		key = await readableFileKey(userId, params.kind, id.data)
	} catch (error) {
		if (error instanceof DomainError) throw data('Not found', { status: 404 })
		throw error
	}
	const file = key ? await storage.get(key) : null
	if (!file) throw data('Not found', { status: 404 })
	return uploadedFileResponse(file, 'owner', { headers: { 'cache-control': 'private, no-store' } })
}
