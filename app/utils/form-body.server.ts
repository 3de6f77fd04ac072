/** How much of a form body a route reads, and what it says when there is more or it cannot be read. */
export type BodyLimit = { maxBytes: number; tooLarge: string; unreadable: string }
export type FormResult = { ok: true; formData: FormData } | { ok: false; message: string; status: 400 | 413 }

/** Room for the multipart boundaries, part headers and the form's other fields. */
export const MULTIPART_OVERHEAD = 64 * 1024

const MB = 1024 * 1024

/** Any page form or form-encoded JSON call: room for the largest upload a form may carry (10 MB) and its fields. */
export const FORM_LIMIT: BodyLimit = {
	maxBytes: 10 * MB + MULTIPART_OVERHEAD,
	tooLarge: 'This file is too large. The limit is 10 MB.',
	unreadable: 'This form could not be read. Please reload the page and try again.',
}

/**
 * Reads a form (urlencoded or multipart) without letting its body grow past the limit, declared or chunked alike.
 * Never throws for bad input; NUL characters are dropped from every field and file name.
 */
export async function readForm(request: Request, limit: BodyLimit = FORM_LIMIT): Promise<FormResult> {
	const tooLarge = { ok: false, message: limit.tooLarge, status: 413 } as const
	const declared = Number(request.headers.get('content-length'))
	if (declared > limit.maxBytes) return tooLarge
	if (!request.body) return { ok: true, formData: new FormData() }

	// A chunked body declares no length, so count the bytes as they arrive as well.
	const counter = limitBytes(limit.maxBytes)
	try {
		const formData = await new Request(request.url, {
			method: request.method,
			headers: request.headers,
			body: request.body.pipeThrough(counter.stream),
			duplex: 'half',
		} as RequestInit).formData()
		return { ok: true, formData: withoutNul(formData) }
	} catch {
		return counter.exceeded() ? tooLarge : { ok: false, message: limit.unreadable, status: 400 }
	}
}

/** PostgreSQL text cannot hold a NUL character, and no one types one. */
function withoutNul(form: FormData) {
	const clean = new FormData()
	for (const [name, value] of form) {
		const cleanValue =
			typeof value === 'string'
				? value.replaceAll('\0', '')
				: value.name.includes('\0')
					? new File([value], value.name.replaceAll('\0', ''), { type: value.type })
					: value
		clean.append(name.replaceAll('\0', ''), cleanValue)
	}
	return clean
}

function limitBytes(limit: number) {
	let seen = 0
	const stream = new TransformStream<Uint8Array, Uint8Array>({
		transform(chunk, controller) {
			seen += chunk.byteLength
			if (seen > limit) controller.error(new Error('Body too large'))
			else controller.enqueue(chunk)
		},
	})
	return { stream, exceeded: () => seen > limit }
}
