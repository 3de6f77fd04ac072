import { checkUpload, NO_FILE_MESSAGE, tooLargeMessage, UPLOAD_RULES, type UploadPurpose } from './file-type.ts'

export type UploadResult =
	| { ok: true; bytes: Uint8Array; name: string; size: number; ext: string; mime: string }
	| { ok: false; message: string; status: 400 | 413 }

/** Room for the multipart boundaries, part headers and the form's other fields. */
const MULTIPART_OVERHEAD = 64 * 1024

export type CheckedFile = { ok: true; bytes: Uint8Array; name: string; size: number; ext: string; mime: string }
export type FormResult = { ok: true; formData: FormData } | { ok: false; message: string; status: 400 | 413 }

const LARGEST_UPLOAD = Math.max(...Object.values(UPLOAD_RULES).map((rule) => rule.maxBytes))

/** The server's cap on any body: a little above every route's own limit, so a route answers with its own message. */
export const MAX_REQUEST_BYTES = LARGEST_UPLOAD + 2 * MULTIPART_OVERHEAD

/**
 * Reads a form (urlencoded or multipart) without letting its body grow past the given upload purpose's limit
 * (default: the largest any upload may be). Never throws for bad input.
 */
export async function readForm(request: Request, purpose?: UploadPurpose): Promise<FormResult> {
	const limit = (purpose ? UPLOAD_RULES[purpose].maxBytes : LARGEST_UPLOAD) + MULTIPART_OVERHEAD
	const tooLarge = { ok: false, message: tooLargeMessage(purpose ?? 'document'), status: 413 } as const
	const declared = Number(request.headers.get('content-length'))
	if (declared > limit) return tooLarge
	if (!request.body) return { ok: true, formData: new FormData() }

	// A chunked body declares no length, so count the bytes as they arrive as well.
	const counter = limitBytes(limit)
	try {
		const formData = await new Request(request.url, {
			method: request.method,
			headers: request.headers,
			body: request.body.pipeThrough(counter.stream),
			duplex: 'half',
		} as RequestInit).formData()
		return { ok: true, formData: withoutNul(formData) }
	} catch {
		return counter.exceeded() ? tooLarge : { ok: false, message: NO_FILE_MESSAGE, status: 400 }
	}
}

/** PostgreSQL text cannot hold a NUL character, and no one types one: drop it from every field and file name. */
function withoutNul(form: FormData) {
	const clean = new FormData()
	for (const [name, value] of form) {
		const cleanValue = typeof value === 'string' ? value.replaceAll('\0', '') : value.name.includes('\0') ? new File([value], value.name.replaceAll('\0', ''), { type: value.type }) : value
		clean.append(name.replaceAll('\0', ''), cleanValue)
	}
	return clean
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

/** Reads one uploaded file from a multipart form and checks it; never throws for bad input. */
export async function readUpload(request: Request, field: string, purpose: UploadPurpose): Promise<UploadResult> {
	const form = await readForm(request, purpose)
	if (!form.ok) return form
	return checkFormFile(form.formData, field, purpose)
}

function limitBytes(limit: number) {
	let seen = 0
	const stream = new TransformStream<Uint8Array, Uint8Array>({
		transform(chunk, controller) {
			seen += chunk.byteLength
			if (seen > limit) controller.error(new Error('Upload too large'))
			else controller.enqueue(chunk)
		},
	})
	return { stream, exceeded: () => seen > limit }
}
