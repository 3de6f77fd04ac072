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

function ascii(text: string) {
	return Array.from(text, (c) => c.charCodeAt(0))
}

function hasAt(bytes: Uint8Array, offset: number, expected: readonly number[]) {
	if (bytes.length < offset + expected.length) return false
	return expected.every((b, i) => bytes[offset + i] === b)
}

const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04]
const decoder = new TextDecoder()

/** A DOCX is a ZIP whose entries include [Content_Types].xml and word/…; read the local file headers. */
function isDocx(bytes: Uint8Array) {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	let contentTypes = false
	let word = false
	let offset = 0
	while (offset + 30 <= bytes.length && hasAt(bytes, offset, ZIP_LOCAL_HEADER)) {
		const flags = view.getUint16(offset + 6, true)
		const compressedSize = view.getUint32(offset + 18, true)
		const nameLength = view.getUint16(offset + 26, true)
		const extraLength = view.getUint16(offset + 28, true)
		const nameStart = offset + 30
		const name = decoder.decode(bytes.subarray(nameStart, nameStart + nameLength))
		if (name === '[Content_Types].xml') contentTypes = true
		if (name.startsWith('word/')) word = true
		if (contentTypes && word) return true
		const dataStart = nameStart + nameLength + extraLength
		// With a trailing data descriptor (flag bit 3) or ZIP64, the header has no usable size: find the next header.
		const sizeUnknown = (flags & 0x08) !== 0 || compressedSize === 0xffffffff
		offset = sizeUnknown ? nextLocalHeader(bytes, dataStart) : dataStart + compressedSize
	}
	return false
}

function nextLocalHeader(bytes: Uint8Array, from: number) {
	for (let i = from; i + 4 <= bytes.length; i++) if (hasAt(bytes, i, ZIP_LOCAL_HEADER)) return i
	return bytes.length
}

export function detectFileType(bytes: Uint8Array): DetectedType | null {
	const kind = detectKind(bytes)
	return kind ? { kind, mime: MIME[kind] } : null
}

function detectKind(bytes: Uint8Array): FileKind | null {
	if (hasAt(bytes, 0, [0xff, 0xd8, 0xff])) return 'jpeg'
	if (hasAt(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
	if (hasAt(bytes, 0, ascii('GIF87a')) || hasAt(bytes, 0, ascii('GIF89a'))) return 'gif'
	if (hasAt(bytes, 0, ascii('RIFF')) && hasAt(bytes, 8, ascii('WEBP'))) return 'webp'
	if (hasAt(bytes, 0, ascii('%PDF-'))) return 'pdf'
	if (hasAt(bytes, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc'
	if (hasAt(bytes, 0, ZIP_LOCAL_HEADER) && isDocx(bytes)) return 'docx'
	return null
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

export type UploadCheck =
	{ ok: true; ext: string; mime: string } | { ok: false; reason: 'empty' | 'too-large' | 'type' | 'content'; message: string }

export function checkUpload(file: { name: string; size: number; bytes: Uint8Array }, purpose: UploadPurpose): UploadCheck {
	const rule = UPLOAD_RULES[purpose]
	if (file.size === 0 || file.bytes.length === 0) return { ok: false, reason: 'empty', message: NO_FILE_MESSAGE }
	if (file.size > rule.maxBytes || file.bytes.length > rule.maxBytes)
		return { ok: false, reason: 'too-large', message: tooLargeMessage(purpose) }
	const dot = file.name.lastIndexOf('.')
	const ext = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : ''
	const expected = Object.hasOwn(rule.extensions, ext) ? rule.extensions[ext] : undefined
	if (!expected) return { ok: false, reason: 'type', message: rule.typeMessage }
	const detected = detectFileType(file.bytes)
	if (detected?.kind !== expected) return { ok: false, reason: 'content', message: rule.contentMessage }
	return { ok: true, ext, mime: detected.mime }
}

export function formatMegabytes(bytes: number) {
	return `${(bytes / MB).toFixed(2)} MB`
}
