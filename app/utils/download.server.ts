import { messagePage } from './message-page.server.ts'
/** A file to save: the browser downloads it and stays on the page, with or without JavaScript. */
export function fileResponse(file: { fileName: string; contentType: string; body: Uint8Array }) {
	return new Response(Buffer.from(file.body), {
		headers: {
			'content-type': file.contentType,
			'content-disposition': `attachment; filename="${file.fileName}"`,
			'content-length': String(file.body.byteLength),
			'cache-control': 'private, no-store',
		},
	})
}

/** Sandboxed (no script, no form, its own origin), and nothing loads but its own images and styles. */
const UPLOADED_FILE_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"

/**
 * A file someone uploaded, as stored. An image (re-encoded on upload) opens in the browser for anyone; a PDF opens there
 * for its owner alone (Chromium's viewer shows it under the sandbox) and is a download for anyone else, so a script it
 * may still hold never runs in a page of this site; anything else is a download. `downloadName` names the file saved.
 */
export function uploadedFileResponse(
	file: { body: Uint8Array; contentType: string; size: number },
	viewer: 'owner' | 'other',
	{ downloadName, headers = {} }: { downloadName?: string; headers?: Record<string, string> } = {},
) {
	const inline = file.contentType.startsWith('image/') || (viewer === 'owner' && file.contentType === 'application/pdf')
	return new Response(file.body as Uint8Array<ArrayBuffer>, {
		headers: {
			'content-type': file.contentType,
			'content-length': String(file.size),
			'content-disposition': inline ? 'inline' : downloadName ? `attachment; filename="${downloadName}"` : 'attachment',
			'content-security-policy': UPLOADED_FILE_CSP,
			'x-content-type-options': 'nosniff',
			...headers,
		},
	})
}

/**
 * A download the domain refused (too many, the server busy, not found, a link that is not valid): a page saying so,
 * with Retry-After when known and a way on. Thrown or returned, it is the answer as it stands.
 */
export function refusedDownload(
	refusal: { status: number; message: string; retryAfterSeconds?: number },
	link: { href: string; label: string } = { href: '/', label: 'Go to the home page' },
) {
	const headers: Record<string, string> = refusal.retryAfterSeconds ? { 'retry-after': String(refusal.retryAfterSeconds) } : {}
	return messagePage({
		status: refusal.status,
		title: REFUSAL_TITLES[refusal.status] ?? 'This file cannot be made',
		paragraphs: [refusal.message],
		link,
		headers,
	})
}

const REFUSAL_TITLES: Record<number, string> = {
	404: 'Not found',
	429: 'Too many requests',
	503: 'Busy just now',
}
