import { storage } from '#app/adapters/storage.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { responderFileKey } from '#app/domain/responder/responder.server.ts'
import { smallPicture } from '#app/domain/uploads/small-pictures.server.ts'
import { getUserId } from '#app/middleware/user.server.ts'
import { refusedDownload, uploadedFileResponse } from '#app/utils/download.server.ts'
import { getClientIp, viaTrustedProxy } from '#app/utils/request.server.ts'
import { hasSessionCookie } from '#app/utils/session.server.ts'
import type { Route } from './+types/scan-file'

/** The DNR document and photo linked from the responder page, under exactly the page's own rule. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
	const kind = params.kind === 'dnr' || params.kind === 'photo' ? params.kind : null
	const visit = kind && {
		viewerId: hasSessionCookie(request) ? await getUserId({ request, context }) : null,
		userAgent: request.headers.get('user-agent'),
		address: getClientIp(request, context),
		trustedHeaders: viaTrustedProxy(context) ? request.headers : null,
	}
	const found = kind && visit ? await responderFileKey(params.token, kind, visit) : null
	if (found && kind === 'photo') return photo(request, found.key, found.ownerId)
	const key = found?.key
	const file = key ? await storage.get(key) : null
	if (!key || !file) throw fileGone()
	// A responder's phone may open the download in a reader that runs scripts: the upload removed them where it could.
	return uploadedFileResponse(file, 'other', {
		downloadName: `${kind === 'dnr' ? 'dnr-document' : 'photo'}.${key.slice(key.lastIndexOf('.') + 1)}`,
		headers: { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' },
	})
}

/**
 * The photo as the page shows it: the picture's small copy (WebP when the browser takes it, else JPEG), a few KB on a
 * slow connection, kept by the responder's browser only, for a while.
 */
async function photo(request: Request, key: string, ownerId: string) {
	const format = /image\/webp/.test(request.headers.get('accept') ?? '') ? 'webp' : 'jpeg'
	// Made in the owner's line of the heavy-work pool when it was not made at upload.
	const small = await smallPicture(ownerId, key, format).catch((error: unknown) => {
		throw error instanceof DomainError ? refusedDownload(error) : error
	})
	if (!small) throw fileGone()
	return uploadedFileResponse(small, 'other', {
		headers: { 'cache-control': 'private, max-age=600', vary: 'Accept', 'x-robots-tag': 'noindex, nofollow' },
	})
}

/** Said to the browser as a page, as every refused download is. */
const fileGone = () => refusedDownload({ status: 404, message: 'This file is not available. The code may be off, or the file removed.' })
