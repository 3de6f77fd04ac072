import { fileTypeFromBuffer } from 'file-type'
import { DomainError } from '#app/utils/errors.ts'

export type FileKind = 'jpeg' | 'png' | 'gif' | 'webp' | 'pdf' | 'doc' | 'docx'
export type DetectedType = { kind: FileKind; mime: string }
export type UploadPurpose = 'picture' | 'insurance-card' | 'document'

const MIME: Record<FileKind, string> = {
	jpeg: 'image/jpeg',
	png: 'image/png',
	gif: 'image/gif',
	webp: 'image/webp',
	pdf: 'application/pdf',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}

/** What the `file-type` library may call each kind we accept (an APNG is a PNG; Illustrator saves real PDFs as `ai`). */
const DETECTED: Record<string, FileKind> = {
	jpg: 'jpeg',
	png: 'png',
	apng: 'png',
	gif: 'gif',
	webp: 'webp',
	pdf: 'pdf',
	ai: 'pdf',
	cfb: 'doc',
	docx: 'docx',
}

/** A Word 97-2003 file's directory names its main stream, in UTF-16; a compound file without it is a spreadsheet, an installer… */
const WORD_DOCUMENT_ENTRY = Array.from('WordDocument\0')

function hasWordDocumentEntry(bytes: Uint8Array) {
	const first = 0x57 // W
	for (let i = bytes.indexOf(first); i !== -1; i = bytes.indexOf(first, i + 1)) {
		if (WORD_DOCUMENT_ENTRY.every((c, j) => bytes[i + 2 * j] === c.charCodeAt(0) && bytes[i + 2 * j + 1] === 0)) return true
	}
	return false
}

/** The file's real type, read from its content by the `file-type` library; null for anything we do not accept. */
export async function detectFileType(bytes: Uint8Array): Promise<DetectedType | null> {
	let ext: string | undefined
	try {
		ext = (await fileTypeFromBuffer(bytes))?.ext
	} catch {
		return null // a truncated container (a ZIP cut short…) is no file we accept
	}
	const kind = ext && Object.hasOwn(DETECTED, ext) ? DETECTED[ext] : undefined
	if (!kind || (kind === 'doc' && !hasWordDocumentEntry(bytes))) return null
	return { kind, mime: MIME[kind] }
}

const MB = 1024 * 1024

type UploadRule = {
	maxBytes: number
	/** Allowed extensions (lower case, no dot) and the content each must have. */
	extensions: Record<string, FileKind>
	accept: string
	typeMessage: string
	contentMessage: string
}

const IMAGE_RULE: UploadRule = {
	maxBytes: 5 * MB,
	extensions: { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp' },
	accept: 'image/jpeg,image/png,image/gif,image/webp',
	typeMessage: 'Please upload an image (JPG, PNG, GIF or WebP).',
	contentMessage: "This file's content does not match its type. Please upload a real image (JPG, PNG, GIF or WebP).",
}

export const UPLOAD_RULES: Record<UploadPurpose, UploadRule> = {
	picture: IMAGE_RULE,
	'insurance-card': IMAGE_RULE,
	document: {
		maxBytes: 10 * MB,
		extensions: { pdf: 'pdf', jpg: 'jpeg', jpeg: 'jpeg', png: 'png', doc: 'doc', docx: 'docx' },
		accept: '.pdf,.jpg,.jpeg,.png,.doc,.docx',
		typeMessage: 'Please upload a PDF, JPG, PNG, DOC or DOCX file.',
		contentMessage: "This file's content does not match its type. Please upload a real PDF, JPG, PNG, DOC or DOCX file.",
	},
}

export const ACCEPT = {
	images: IMAGE_RULE.accept,
	documents: UPLOAD_RULES.document.accept,
} as const

export const NO_FILE_MESSAGE = 'Please choose a file to upload.'

export function tooLargeMessage(purpose: UploadPurpose) {
	return `This file is too large. The limit is ${UPLOAD_RULES[purpose].maxBytes / MB} MB.`
}

/** Images are stored at most this many pixels on their longer side; larger ones are scaled down. */
export const MAX_IMAGE_SIDE = 4096
/** A small file can claim enormous dimensions, so an image with more pixels than this is refused before it is decoded. */
export const MAX_IMAGE_PIXELS = 50_000_000
export const TOO_MANY_PIXELS_MESSAGE = `This image has too many pixels. The limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`

/** What an accepted upload is: the extension it was sent with (lower case) and the type its content really is. */
export type AcceptedUpload = { ext: string; mime: string }

/**
 * Checks a file against its purpose's rule: not empty, not too large (413), an allowed extension, and content that
 * really is of that extension's type; a refusal is a `DomainError` on `field`.
 */
export async function checkUpload(
	file: { name: string; size: number; bytes: Uint8Array },
	purpose: UploadPurpose,
	field?: string,
): Promise<AcceptedUpload> {
	const rule = UPLOAD_RULES[purpose]
	if (file.size === 0 || file.bytes.length === 0) throw new DomainError(400, NO_FILE_MESSAGE, field)
	if (file.size > rule.maxBytes || file.bytes.length > rule.maxBytes) throw new DomainError(413, tooLargeMessage(purpose), field)
	const dot = file.name.lastIndexOf('.')
	const ext = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : ''
	const expected = Object.hasOwn(rule.extensions, ext) ? rule.extensions[ext] : undefined
	if (!expected) throw new DomainError(400, rule.typeMessage, field)
	const detected = await detectFileType(file.bytes)
	if (detected?.kind !== expected) throw new DomainError(400, rule.contentMessage, field)
	return { ext, mime: detected.mime }
}

export function formatMegabytes(bytes: number) {
	return `${(bytes / MB).toFixed(2)} MB`
}
