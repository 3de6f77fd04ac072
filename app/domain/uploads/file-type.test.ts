import JSZip from 'jszip'
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
const elf = bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0)
const exe = bytes(text('MZ'), 0x90, 0, 3, 0, 0, 0)

const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff]
const u32 = (n: number) => [...u16(n & 0xffff), ...u16(n >>> 16)]

/** The [Content_Types].xml of an Office Open XML file whose main part has this content type. */
const contentTypes = (main: string) =>
	`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
	`<Default Extension="xml" ContentType="application/xml"/><Override PartName="/main.xml" ContentType="${main}.main+xml"/></Types>`
const WORD = contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
const EXCEL = contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')

/** A ZIP of these entries; `streamed` puts each entry's sizes in a data descriptor after its data, as streaming writers do. */
function zip(entries: Record<string, string>, streamed = false) {
	const archive = new JSZip()
	for (const [name, content] of Object.entries(entries)) archive.file(name, content)
	return archive.generateAsync({ type: 'uint8array', compression: 'DEFLATE', streamFiles: streamed })
}

const docx = await zip({ '[Content_Types].xml': WORD, '_rels/.rels': '<Relationships/>', 'word/document.xml': '<w:document/>' })

/**
 * A compound file (the container of Word 97-2003, old Excel and PowerPoint files, and MSI installers) with 512-byte
 * sectors: the header, one FAT sector, one directory sector (the root and one stream), then the stream's 4096 bytes.
 */
function compoundFile(stream: string) {
	const sector = () => new Array<number>(512).fill(0)
	const header = [...[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], ...new Array<number>(16).fill(0)]
	header.push(...u16(0x3e), ...u16(3), ...u16(0xfffe), ...u16(9), ...u16(6), ...new Array<number>(10).fill(0))
	header.push(...u32(1), ...u32(1), ...u32(0), ...u32(4096), ...u32(0xfffffffe), ...u32(0), ...u32(0xfffffffe), ...u32(0))
	header.push(...u32(0), ...new Array<number>(512 - header.length - 4).fill(0xff))
	// FAT: sector 0 is the FAT itself, 1 the directory, 2 to 9 the stream.
	const fat = [0xfffffffd, 0xfffffffe, 3, 4, 5, 6, 7, 8, 9, 0xfffffffe]
	const fatSector = [...fat.flatMap(u32), ...new Array<number>(512 - fat.length * 4).fill(0xff)]
	const entry = (name: string, type: number, child: number, start: number, size: number) => {
		const utf16 = [...text(name).flatMap((c) => [c, 0]), 0, 0]
		return [...utf16, ...new Array<number>(64 - utf16.length).fill(0), ...u16(utf16.length), type, 1, ...u32(0xffffffff)].concat(
			u32(0xffffffff),
			u32(child),
			new Array<number>(36).fill(0),
			u32(start),
			u32(size),
			u32(0),
		)
	}
	const directory = [...entry('Root Entry', 5, 1, 0xfffffffe, 0), ...entry(stream, 2, 0xffffffff, 2, 4096)]
	const streamData = [...u16(0xa5ec), ...new Array<number>(4094).fill(0)]
	return new Uint8Array([...header, ...fatSector, ...directory, ...sector().slice(directory.length), ...streamData])
}
const doc = compoundFile('WordDocument')
const xls = compoundFile('Workbook')

describe('detectFileType', () => {
	test.each([
		['jpeg', jpeg, 'image/jpeg'],
		['png', png, 'image/png'],
		['gif', gif, 'image/gif'],
		['webp', webp, 'image/webp'],
		['pdf', pdf, 'application/pdf'],
		['doc', doc, 'application/msword'],
		['docx', docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
	])('recognises %s', async (kind, file, mime) => {
		expect(await detectFileType(file)).toEqual({ kind, mime })
	})

	test('recognises GIF87a too', async () => {
		expect((await detectFileType(bytes(text('GIF87a'), 0)))?.kind).toBe('gif')
	})

	test('finds the DOCX entries when sizes sit in data descriptors', async () => {
		const streamed = await zip({ '[Content_Types].xml': WORD, 'word/document.xml': '<w:document/>' }, true)
		expect((await detectFileType(streamed))?.kind).toBe('docx')
	})

	test('a ZIP that is not a Word document is not a DOCX', async () => {
		expect(await detectFileType(await zip({ 'readme.txt': 'hi' }))).toBeNull()
		expect(await detectFileType(await zip({ '[Content_Types].xml': EXCEL, 'xl/workbook.xml': '<w/>' }))).toBeNull()
		expect(await detectFileType(await zip({ 'word/document.xml': '<w:document/>' }))).toBeNull()
	})

	test('a compound file is a DOC only with a Word document stream', async () => {
		expect(await detectFileType(xls)).toBeNull()
		expect(await detectFileType(doc.subarray(0, 512))).toBeNull()
	})

	test('a PDF saved by Illustrator is a PDF', async () => {
		const illustrator = bytes(text('%PDF-1.6\n'), new Array<number>(2000).fill(0x20), text('<</AIPrivateData1 1 0 R>>\n%%EOF\n'))
		expect(await detectFileType(illustrator)).toEqual({ kind: 'pdf', mime: 'application/pdf' })
	})

	test('does not recognise executables, text, truncated headers or nothing', async () => {
		expect(await detectFileType(elf)).toBeNull()
		expect(await detectFileType(exe)).toBeNull()
		expect(await detectFileType(bytes(text('hello, world')))).toBeNull()
		expect(await detectFileType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull()
		expect(await detectFileType(bytes(text('RIFF'), 0, 0, 0, 0, text('WAVE')))).toBeNull()
		expect(await detectFileType(bytes(text('PK\x03\x04'), 0, 0))).toBeNull()
		expect(await detectFileType(new Uint8Array())).toBeNull()
	})
})

const check = (name: string, file: Uint8Array, purpose: UploadPurpose = 'document') =>
	checkUpload({ name, size: file.length, bytes: file }, purpose, 'document')
/** A refused file: a DomainError on the checked field, with this message (and status 400 unless said). */
const refused = (message: string, status = 400) => ({ name: 'DomainError', status, message, field: 'document' })

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
	])('accepts a real %s', async (name, file, ext, mime) => {
		expect(await check(name, file)).toEqual({ ext, mime })
	})

	test('refuses a renamed executable', async () => {
		await expect(check('report.pdf', elf)).rejects.toMatchObject(refused(CONTENT_DOCUMENT))
		await expect(check('report.pdf', exe)).rejects.toMatchObject(refused(CONTENT_DOCUMENT))
	})

	test('refuses content that does not match the extension', async () => {
		await expect(check('scan.pdf', png)).rejects.toMatchObject(refused(CONTENT_DOCUMENT))
		await expect(check('letter.doc', docx)).rejects.toMatchObject(refused(CONTENT_DOCUMENT))
	})

	test('refuses another Office file (or an installer) renamed DOC or DOCX', async () => {
		await expect(check('letter.doc', xls)).rejects.toMatchObject(refused(CONTENT_DOCUMENT))
		const workbook = await zip({ '[Content_Types].xml': EXCEL, 'xl/workbook.xml': '<w/>' })
		await expect(check('letter.docx', workbook)).rejects.toMatchObject(refused(CONTENT_DOCUMENT))
	})

	test('refuses an extension that is not allowed, or none', async () => {
		const message = 'Please upload a PDF, JPG, PNG, DOC or DOCX file.'
		await expect(check('notes.txt', pdf)).rejects.toMatchObject(refused(message))
		await expect(check('animation.gif', gif)).rejects.toMatchObject(refused(message))
		await expect(check('report', pdf)).rejects.toMatchObject(refused(message))
	})

	test('refuses an empty file', async () => {
		await expect(check('report.pdf', new Uint8Array())).rejects.toMatchObject(refused('Please choose a file to upload.'))
	})

	test('refuses a file over 10 MB, and accepts one of exactly 10 MB', async () => {
		const big = new Uint8Array(10 * MB + 1)
		big.set(pdf)
		await expect(check('report.pdf', big)).rejects.toMatchObject(refused('This file is too large. The limit is 10 MB.', 413))
		expect(await check('report.pdf', big.subarray(0, 10 * MB))).toEqual({ ext: 'pdf', mime: 'application/pdf' })
	})
})

describe('checkUpload for pictures and insurance cards', () => {
	test.each(['picture', 'insurance-card'] as const)('%s accepts JPG, PNG, GIF and WebP', async (purpose) => {
		expect(await check('me.jpg', jpeg, purpose)).toEqual({ ext: 'jpg', mime: 'image/jpeg' })
		expect(await check('me.png', png, purpose)).toEqual({ ext: 'png', mime: 'image/png' })
		expect(await check('me.gif', gif, purpose)).toEqual({ ext: 'gif', mime: 'image/gif' })
		expect(await check('me.webp', webp, purpose)).toEqual({ ext: 'webp', mime: 'image/webp' })
	})

	test('refuses documents, renamed files and anything over 5 MB', async () => {
		await expect(check('card.pdf', pdf, 'insurance-card')).rejects.toMatchObject(refused('Please upload an image (JPG, PNG, GIF or WebP).'))
		await expect(check('card.png', jpeg, 'insurance-card')).rejects.toMatchObject(refused(CONTENT_IMAGE))
		await expect(check('me.jpg', elf, 'picture')).rejects.toMatchObject(refused(CONTENT_IMAGE))
		const big = new Uint8Array(5 * MB + 1)
		big.set(png)
		await expect(check('me.png', big, 'picture')).rejects.toMatchObject(refused('This file is too large. The limit is 5 MB.', 413))
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
