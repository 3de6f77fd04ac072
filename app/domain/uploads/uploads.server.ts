import { FORM_LIMIT, MULTIPART_OVERHEAD, type BodyLimit } from '#app/utils/form-body.server.ts'
import { checkUpload, NO_FILE_MESSAGE, tooLargeMessage, UPLOAD_RULES, type UploadPurpose } from './file-type.ts'

export type CheckedFile = { ok: true; bytes: Uint8Array; name: string; size: number; ext: string; mime: string }

const LARGEST_UPLOAD = Math.max(...Object.values(UPLOAD_RULES).map((rule) => rule.maxBytes))

/** The server's cap on any body: a little above every route's own limit, so a route answers with its own message. */
export const MAX_REQUEST_BYTES = Math.max(LARGEST_UPLOAD + 2 * MULTIPART_OVERHEAD, FORM_LIMIT.maxBytes + MULTIPART_OVERHEAD)

/** The body an upload of this purpose may send: the file's limit and room for the form around it. */
export function uploadLimit(purpose: UploadPurpose): BodyLimit {
	return { maxBytes: UPLOAD_RULES[purpose].maxBytes + MULTIPART_OVERHEAD, tooLarge: tooLargeMessage(purpose), unreadable: NO_FILE_MESSAGE }
}

/** Checks the file in one field of a form already read: size, extension and real content type. */
export async function checkFormFile(formData: FormData, field: string, purpose: UploadPurpose): Promise<CheckedFile | { ok: false; message: string; status: 400 | 413 }> {
	const file = formData.get(field)
	if (!(file instanceof File)) return { ok: false, message: NO_FILE_MESSAGE, status: 400 }
	const bytes = new Uint8Array(await file.arrayBuffer())
	const check = checkUpload({ name: file.name, size: file.size, bytes }, purpose)
	if (!check.ok) return { ok: false, message: check.message, status: check.reason === 'too-large' ? 413 : 400 }
	return { ok: true, bytes, name: file.name, size: file.size, ext: check.ext, mime: check.mime }
}
