import { describe, expect, test } from 'vitest'
import { ACCEPT, checkUpload, detectFileType, formatMegabytes, type UploadPurpose } from './file-type.ts'

const MB = 1024 * 1024
const text = (s: string) => Array.from(s, (c) => c.charCodeAt(0))
const bytes = (...parts: (number | number[])[]) => new Uint8Array(parts.flat())

const jpeg = bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, text('JFIF'), 0, 0xff, 0xd9)
const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, text('IHDR'))
const gif = bytes(text('GIF89a'), 1, 0, 1, 0, 0, 0, 0, 0x3b)
const webp = bytes(text('RIFF'), 0x1a, 0, 0, 0, text('WEBPVP8 '))
const pdf = bytes(text('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'))
const doc = bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, new Array<number>(24).fill(0))
const elf = bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0)
const exe = bytes(text('MZ'), 0x90, 0, 3, 0, 0, 0)

const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff]
const u32 = (n: number) => [...u16(n & 0xffff), ...u16(n >>> 16)]

/** One stored (uncompressed) ZIP local file entry; with a data descriptor the header's sizes are zero. */
function zipEntry(name: string, content: string, descriptor = false) {
	const data = text(content)
	const size = descriptor ? 0 : data.length
	const header = [text('PK\x03\x04'), u16(20), u16(descriptor ? 0x08 : 0), u16(0), u16(0), u16(0), u32(0)]
	const entry = [...header.flat(), ...u32(size), ...u32(size), ...u16(name.length), ...u16(0), ...text(name), ...data]
	return descriptor ? [...entry, ...text('PK\x07\x08'), ...u32(0), ...u32(data.length), ...u32(data.length)] : entry
}
const centralDirectoryEnd = [...text('PK\x05\x06'), ...new Array<number>(18).fill(0)]
const zip = (...entries: number[][]) => new Uint8Array([...entries.flat(), ...centralDirectoryEnd])

const docx = zip(
	zipEntry('[Content_Types].xml', '<Types/>'),
	zipEntry('_rels/.rels', '<Relationships/>'),
	zipEntry('word/document.xml', '<w:document/>'),
)

describe('detectFileType', () => {
	test.each([
		['jpeg', jpeg, 'image/jpeg'],
		['png', png, 'image/png'],
		['gif', gif, 'image/gif'],
		['webp', webp, 'image/webp'],
		['pdf', pdf, 'application/pdf'],
		['doc', doc, 'application/msword'],
		['docx', docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
	])('recognises %s', (kind, file, mime) => {
		expect(detectFileType(file)).toEqual({ kind, mime })
	})

	test('recognises GIF87a too', () => {
		expect(detectFileType(bytes(text('GIF87a'), 0))?.kind).toBe('gif')
	})

	test('finds the DOCX entries when sizes sit in data descriptors', () => {
		const streamed = zip(zipEntry('[Content_Types].xml', '<Types/>', true), zipEntry('word/document.xml', '<w:document/>', true))
		expect(detectFileType(streamed)?.kind).toBe('docx')
	})

	test('a ZIP without both DOCX entries is not a DOCX', () => {
		expect(detectFileType(zip(zipEntry('readme.txt', 'hi')))).toBeNull()
		expect(detectFileType(zip(zipEntry('[Content_Types].xml', '<Types/>'), zipEntry('xl/workbook.xml', '<w/>')))).toBeNull()
		expect(detectFileType(zip(zipEntry('word/document.xml', '<w:document/>')))).toBeNull()
	})

	test('does not recognise executables, text, truncated headers or nothing', () => {
		expect(detectFileType(elf)).toBeNull()
		expect(detectFileType(exe)).toBeNull()
		expect(detectFileType(bytes(text('hello, world')))).toBeNull()
		expect(detectFileType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull()
		expect(detectFileType(bytes(text('RIFF'), 0, 0, 0, 0, text('WAVE')))).toBeNull()
		expect(detectFileType(bytes(text('PK\x03\x04'), 0, 0))).toBeNull()
		expect(detectFileType(new Uint8Array())).toBeNull()
	})
})

const check = (name: string, file: Uint8Array, purpose: UploadPurpose = 'document') =>
	checkUpload({ name, size: file.length, bytes: file }, purpose)

const CONTENT_DOCUMENT = "This file's content does not match its type. Please upload a real PDF, JPG, PNG, DOC or DOCX file."
const CONTENT_IMAGE = "This file's content does not match its type. Please upload a real image (JPG, PNG, GIF or WebP)."

describe('checkUpload for documents', () => {
	test.each([
		['report.pdf', pdf, 'pdf', 'application/pdf'],
		['scan.PNG', png, 'png', 'image/png'],
		['photo.jpg', jpeg, 'jpg', 'image/jpeg'],
		['photo.JPEG', jpeg, 'jpeg', 'image/jpeg'],
		['letter.doc', doc, 'doc', 'application/msword'],
		['letter.docx', docx, 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
	])('accepts a real %s', (name, file, ext, mime) => {
		expect(check(name, file)).toEqual({ ok: true, ext, mime })
	})

	test('refuses a renamed executable', () => {
		expect(check('report.pdf', elf)).toMatchObject({ ok: false, message: CONTENT_DOCUMENT })
		expect(check('report.pdf', exe)).toMatchObject({ ok: false, message: CONTENT_DOCUMENT })
	})

	test('refuses content that does not match the extension', () => {
		expect(check('scan.pdf', png)).toMatchObject({ ok: false, message: CONTENT_DOCUMENT })
		expect(check('letter.doc', docx)).toMatchObject({ ok: false, message: CONTENT_DOCUMENT })
	})

	test('refuses an extension that is not allowed, or none', () => {
		const message = 'Please upload a PDF, JPG, PNG, DOC or DOCX file.'
		expect(check('notes.txt', pdf)).toMatchObject({ ok: false, message })
		expect(check('animation.gif', gif)).toMatchObject({ ok: false, message })
		expect(check('report', pdf)).toMatchObject({ ok: false, message })
	})

	test('refuses an empty file', () => {
		expect(check('report.pdf', new Uint8Array())).toMatchObject({ ok: false, message: 'Please choose a file to upload.' })
	})

	test('refuses a file over 10 MB, and accepts one of exactly 10 MB', () => {
		const big = new Uint8Array(10 * MB + 1)
		big.set(pdf)
		expect(check('report.pdf', big)).toMatchObject({ ok: false, message: 'This file is too large. The limit is 10 MB.' })
		expect(check('report.pdf', big.subarray(0, 10 * MB))).toMatchObject({ ok: true })
	})
})

describe('checkUpload for pictures and insurance cards', () => {
	test.each(['picture', 'insurance-card'] as const)('%s accepts JPG, PNG, GIF and WebP', (purpose) => {
		expect(check('me.jpg', jpeg, purpose)).toEqual({ ok: true, ext: 'jpg', mime: 'image/jpeg' })
		expect(check('me.png', png, purpose)).toEqual({ ok: true, ext: 'png', mime: 'image/png' })
		expect(check('me.gif', gif, purpose)).toEqual({ ok: true, ext: 'gif', mime: 'image/gif' })
		expect(check('me.webp', webp, purpose)).toEqual({ ok: true, ext: 'webp', mime: 'image/webp' })
	})

	test('refuses documents, renamed files and anything over 5 MB', () => {
		expect(check('card.pdf', pdf, 'insurance-card')).toMatchObject({
			ok: false,
			message: 'Please upload an image (JPG, PNG, GIF or WebP).',
		})
		expect(check('card.png', jpeg, 'insurance-card')).toMatchObject({ ok: false, message: CONTENT_IMAGE })
		expect(check('me.jpg', elf, 'picture')).toMatchObject({ ok: false, message: CONTENT_IMAGE })
		const big = new Uint8Array(5 * MB + 1)
		big.set(png)
		expect(check('me.png', big, 'picture')).toMatchObject({ ok: false, message: 'This file is too large. The limit is 5 MB.' })
	})
})

test('accept strings for <input accept>', () => {
	expect(ACCEPT.images).toBe('image/jpeg,image/png,image/gif,image/webp')
	expect(ACCEPT.documents).toBe('.pdf,.jpg,.jpeg,.png,.doc,.docx')
})

test('formatMegabytes shows two decimals', () => {
	expect(formatMegabytes(1.5 * MB)).toBe('1.50 MB')
	expect(formatMegabytes(0)).toBe('0.00 MB')
	expect(formatMegabytes(123_456)).toBe('0.12 MB')
	expect(formatMegabytes(10 * MB)).toBe('10.00 MB')
})
