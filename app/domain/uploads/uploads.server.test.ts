import { crc32 } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { FORM_LIMIT } from '#app/utils/form-body.server.ts'
import { pdfWithScripts, SAMPLE_FILES } from '#tests/factories.ts'
import { TOO_MANY_PIXELS_MESSAGE, tooLargeMessage, UPLOAD_RULES, type UploadPurpose } from './file-type.ts'
import { checkFile, MAX_REQUEST_BYTES, uploadLimit } from './uploads.server.ts'

test('every upload fits a page form and the server cap, and the page form names the largest limit', () => {
	const purposes = Object.keys(UPLOAD_RULES) as UploadPurpose[]
	for (const purpose of purposes) {
		expect(uploadLimit(purpose).maxBytes).toBeLessThanOrEqual(FORM_LIMIT.maxBytes)
		expect(uploadLimit(purpose).maxBytes).toBeLessThan(MAX_REQUEST_BYTES)
	}
	const largest = purposes.reduce((a, b) => (UPLOAD_RULES[a].maxBytes >= UPLOAD_RULES[b].maxBytes ? a : b))
	expect(uploadLimit(largest).maxBytes).toBe(FORM_LIMIT.maxBytes)
	expect(FORM_LIMIT.tooLarge).toBe(tooLargeMessage(largest))
	expect(FORM_LIMIT.maxBytes).toBeLessThan(MAX_REQUEST_BYTES)
})

const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#2e86de' } })
const file = (bytes: Uint8Array, name: string) => new File([new Uint8Array(bytes)], name)

describe('checkFile', () => {
	test('stores an image as re-encoded: its bytes, size, type and extension are the new file', async () => {
		const photo = await image(40, 30)
			.jpeg({ quality: 100 })
			.withExif({ IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 52/1 0/1' } })
			.toBuffer()
		const checked = await checkFile('uploader', file(photo, 'Scan.JPEG'), 'document', 'document')
		expect(checked).toMatchObject({ name: 'Scan.JPEG', ext: 'jpeg', mime: 'image/jpeg', size: checked.bytes.length })
		expect(checked.size).not.toBe(photo.length)
		expect((await sharp(checked.bytes).metadata()).exif).toBeUndefined()
	})

	test('a GIF is stored as a PNG, and named so', async () => {
		const gif = await image(10, 10).gif().toBuffer()
		const checked = await checkFile('uploader', file(gif, 'me.smiling.gif'), 'picture', 'picture')
		expect(checked).toMatchObject({ name: 'me.smiling.png', ext: 'png', mime: 'image/png', size: checked.bytes.length })
		expect((await sharp(checked.bytes).metadata()).format).toBe('png')
	})

	test('a document other than an image is stored as sent', async () => {
		const pdf = SAMPLE_FILES.pdf()
		const checked = await checkFile('uploader', pdf, 'document', 'document')
		expect(checked).toMatchObject({ name: 'directive.pdf', ext: 'pdf', mime: 'application/pdf', size: pdf.size })
		expect(checked.bytes).toEqual(new Uint8Array(await pdf.arrayBuffer()))
	})

	test('a PDF that runs scripts is stored without them, under the name it was sent with', async () => {
		const scripted = await pdfWithScripts()
		const checked = await checkFile('uploader', file(scripted, 'dnr.pdf'), 'document', 'document')
		expect(checked).toMatchObject({ name: 'dnr.pdf', ext: 'pdf', mime: 'application/pdf', size: checked.bytes.length })
		expect(checked.bytes).not.toEqual(scripted)
		const text = Buffer.from(checked.bytes).toString('latin1')
		for (const mark of ['/JavaScript', '/OpenAction', '/AA', '/Launch']) expect(text).not.toContain(mark)
	})

	test('an image that does not decode is refused as not a real image', async () => {
		const headerOnly = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 0xff, 0xd9])
		await expect(checkFile('uploader', file(headerOnly, 'me.jpg'), 'picture', 'picture')).rejects.toMatchObject({
			status: 400,
			message: UPLOAD_RULES.picture.contentMessage,
			field: 'picture',
		})
		await expect(checkFile('uploader', file(headerOnly, 'scan.jpg'), 'document', 'document')).rejects.toMatchObject({
			status: 400,
			message: UPLOAD_RULES.document.contentMessage,
		})
	})

	test('an image claiming enormous dimensions is refused with its own message', async () => {
		const png = Buffer.from(await image(8, 8).png().toBuffer())
		png.writeUInt32BE(40_000, 16) // IHDR width, then height, then the chunk's CRC
		png.writeUInt32BE(40_000, 20)
		png.writeUInt32BE(crc32(png.subarray(12, 29)), 29)
		await expect(checkFile('uploader', file(png, 'card.png'), 'insurance-card', 'file')).rejects.toMatchObject({
			status: 400,
			message: TOO_MANY_PIXELS_MESSAGE,
			field: 'file',
		})
		expect(TOO_MANY_PIXELS_MESSAGE).toBe('This image has too many pixels. The limit is 50 megapixels.')
	})

	test('a renamed executable is still refused by its content', async () => {
		await expect(checkFile('uploader', SAMPLE_FILES.executable(), 'document', 'document')).rejects.toMatchObject({
			status: 400,
			message: UPLOAD_RULES.document.contentMessage,
		})
	})
})
