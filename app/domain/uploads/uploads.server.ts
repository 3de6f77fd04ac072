import { DomainError } from '#app/utils/errors.ts'
import { heavyWork } from '#app/domain/heavy-work.server.ts'
import { FORM_LIMIT, MULTIPART_OVERHEAD, type BodyLimit } from '#app/utils/form-body.server.ts'
import { checkUpload, NO_FILE_MESSAGE, TOO_MANY_PIXELS_MESSAGE, tooLargeMessage, UPLOAD_RULES, type UploadPurpose } from './file-type.ts'
import { render } from '#app/domain/render/pool.server.ts'
import { isImageMime } from './images.server.ts'
import { cleanPdf } from './pdf.server.ts'

export type CheckedFile = { bytes: Uint8Array; name: string; size: number; ext: string; mime: string }

const LARGEST_UPLOAD = Math.max(...Object.values(UPLOAD_RULES).map((rule) => rule.maxBytes))

/** The server's cap on any body: a little above every route's own limit, so a route answers with its own message. */
export const MAX_REQUEST_BYTES = Math.max(LARGEST_UPLOAD + 2 * MULTIPART_OVERHEAD, FORM_LIMIT.maxBytes + MULTIPART_OVERHEAD)

/** The body an upload of this purpose may send: the file's limit and room for the form around it. */
export function uploadLimit(purpose: UploadPurpose): BodyLimit {
	return { maxBytes: UPLOAD_RULES[purpose].maxBytes + MULTIPART_OVERHEAD, tooLarge: tooLargeMessage(purpose), unreadable: NO_FILE_MESSAGE }
}

/**
 * Checks a file a person uploaded (a form field's value): size, extension and real content type; refused on `field`.
 * An image is re-encoded, and what is stored (bytes, size, type, extension) is the re-encoded file; a GIF becomes a PNG.
 * A PDF is stored without its scripts and actions when pdf-lib can read it (see cleanPdf), else as sent. Both are
 * worked on in the heavy-work pool, in the person's own line.
 */
export async function checkFile(userId: string, upload: unknown, purpose: UploadPurpose, field: string): Promise<CheckedFile> {
	if (!(upload instanceof File)) throw new DomainError(400, NO_FILE_MESSAGE, field)
	const bytes = new Uint8Array(await upload.arrayBuffer())
	const check = await checkUpload({ name: upload.name, size: upload.size, bytes }, purpose, field)
	if (check.mime === 'application/pdf') {
		const cleaned = await onField(
			field,
			heavyWork(userId, () => cleanPdf(bytes)),
		)
		if (cleaned) return { bytes: cleaned, name: upload.name, size: cleaned.length, ext: check.ext, mime: check.mime }
	}
	if (!isImageMime(check.mime)) return { bytes, name: upload.name, size: upload.size, ext: check.ext, mime: check.mime }
	const image = await onField(
		field,
		heavyWork(userId, () => render({ kind: 'reencode-image', bytes, mime: check.mime })),
	)
	if (image.image !== 'reencoded') {
		throw new DomainError(400, image.image === 'too-many-pixels' ? TOO_MANY_PIXELS_MESSAGE : UPLOAD_RULES[purpose].contentMessage, field)
	}
	if (image.mime === check.mime)
		return { bytes: image.bytes, name: upload.name, size: image.bytes.length, ext: check.ext, mime: image.mime }
	const ext = image.format === 'jpeg' ? 'jpg' : image.format
	const name = `${upload.name.slice(0, upload.name.lastIndexOf('.'))}.${ext}`
	return { bytes: image.bytes, name, size: image.bytes.length, ext, mime: image.mime }
}

/** A refusal without a field (the heavy-work pool is full) shown beside the file's field, where the person looks. */
async function onField<T>(field: string, work: Promise<T>) {
	try {
		return await work
	} catch (error) {
		if (error instanceof DomainError && !error.field) throw new DomainError(error.status, error.message, field, error.retryAfterSeconds)
		throw error
	}
}
