import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { MAX_IMAGE_SIDE } from './file-type.ts'
import { reencodeImage } from './images.server.ts'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function pngChunk(type: string, data: Buffer) {
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
	const length = Buffer.alloc(4)
	length.writeUInt32BE(data.length)
	const crc = Buffer.alloc(4)
	crc.writeUInt32BE(crc32(body))
	return Buffer.concat([length, body, crc])
}

/** The chunks of a PNG up to (not including) IEND, so one can be added before it. */
const beforeIend = (png: Buffer) => png.subarray(0, png.length - 12)
const IEND = pngChunk('IEND', Buffer.alloc(0))

const solid = (width: number, height: number, background = '#c0392b') => sharp({ create: { width, height, channels: 3, background } })

async function reencoded(bytes: Uint8Array, mime: string) {
	const result = await reencodeImage(bytes, mime)
	if (result.image !== 'reencoded') throw new Error(`refused: ${result.image}`)
	return { ...result, buffer: Buffer.from(result.bytes), metadata: await sharp(result.bytes).metadata() }
}

describe('reencodeImage keeps the pixels and nothing else', () => {
	test('a JPEG loses its EXIF (GPS position included) and is turned by its orientation', async () => {
		const gps = { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2628/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3936/100' }
		const photo = await solid(40, 20)
			.jpeg()
			.withExif({ IFD0: { Make: 'PhoneCo' }, IFD3: gps })
			.withMetadata({ orientation: 6 })
			.toBuffer()
		const before = await sharp(photo).metadata()
		expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true) // the GPS IFD pointer tag, 0x8825
		expect(before.orientation).toBe(6)

		const after = await reencoded(photo, 'image/jpeg')
		expect(after).toMatchObject({ format: 'jpeg', mime: 'image/jpeg' })
		expect(after.metadata).toMatchObject({ format: 'jpeg', width: 20, height: 40 })
		expect(after.metadata.exif).toBeUndefined()
		expect(after.metadata.orientation).toBeUndefined()
		expect(after.buffer.includes('Exif')).toBe(false)
		expect(after.buffer.includes('PhoneCo')).toBe(false)
	})

	test('XMP and the ICC profile go too (the colours are converted to sRGB first)', async () => {
		const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>'
		const photo = await solid(16, 16).jpeg().withIccProfile('p3').withXmp(xmp).toBuffer()
		expect(await sharp(photo).metadata()).toMatchObject({ hasProfile: true, xmp: expect.any(Buffer) })
		const after = await reencoded(photo, 'image/jpeg')
		expect(after.metadata.hasProfile).toBe(false)
		expect(after.metadata.icc).toBeUndefined()
		expect(after.metadata.xmp).toBeUndefined()
	})

	test('a PNG with a PDF and a script appended after IEND comes out without them', async () => {
		const png = await solid(12, 12).png().toBuffer()
		const payload = '%PDF-1.4\n1 0 obj<</JS (app.alert(1))>>endobj\n<html><script>alert(document.cookie)</script></html>'
		const polyglot = Buffer.concat([png, Buffer.from(payload)])
		const after = await reencoded(polyglot, 'image/png')
		expect(after.metadata).toMatchObject({ format: 'png', width: 12, height: 12 })
		expect(after.buffer.includes('%PDF')).toBe(false)
		expect(after.buffer.includes('<script>')).toBe(false)
		expect(after.buffer.subarray(-12).equals(IEND)).toBe(true)
	})

	test('a PNG text chunk with a script comes out without it', async () => {
		const png = await solid(12, 12).png().toBuffer()
		const text = pngChunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>', 'latin1'))
		const after = await reencoded(Buffer.concat([beforeIend(png), text, IEND]), 'image/png')
		expect(after.buffer.includes('<script>')).toBe(false)
		expect(after.metadata.comments).toBeUndefined()
	})

	test('a JPEG with a script in a comment segment comes out without it', async () => {
		const jpeg = await solid(12, 12).jpeg().toBuffer()
		const script = Buffer.from('<script>alert(document.cookie)</script>')
		const comment = Buffer.from([0xff, 0xfe, 0, 0])
		comment.writeUInt16BE(script.length + 2, 2)
		const polyglot = Buffer.concat([jpeg.subarray(0, 2), comment, script, jpeg.subarray(2), Buffer.from('<?php system($_GET[1]); ?>')])
		expect(polyglot.includes('<script>')).toBe(true)
		const after = await reencoded(polyglot, 'image/jpeg')
		expect(after.buffer.includes('<script>')).toBe(false)
		expect(after.buffer.includes('<?php')).toBe(false)
	})
})

describe('reencodeImage formats', () => {
	test('PNG stays PNG and WebP stays WebP, transparency kept', async () => {
		const transparent = sharp({ create: { width: 10, height: 8, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 0.5 } } })
		const png = await reencoded(await transparent.clone().png().toBuffer(), 'image/png')
		expect(png).toMatchObject({ format: 'png', mime: 'image/png', metadata: { width: 10, height: 8, hasAlpha: true } })
		const webp = await reencoded(await transparent.clone().webp().toBuffer(), 'image/webp')
		expect(webp).toMatchObject({ format: 'webp', mime: 'image/webp', metadata: { format: 'webp', width: 10, height: 8, hasAlpha: true } })
	})

	test('an animated GIF becomes a PNG of its first frame, still with a palette', async () => {
		const red = await solid(8, 6, '#ff0000').png().toBuffer()
		const blue = await solid(8, 6, '#0000ff').png().toBuffer()
		const gif = await sharp([red, blue], { join: { animated: true } })
			.gif()
			.toBuffer()
		expect(await sharp(gif).metadata()).toMatchObject({ format: 'gif', pages: 2 })
		const after = await reencoded(gif, 'image/gif')
		expect(after).toMatchObject({ format: 'png', mime: 'image/png', metadata: { format: 'png', width: 8, height: 6, isPalette: true } })
		expect(after.metadata.pages).toBeUndefined()
		const { data } = await sharp(after.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
		expect([...data.subarray(0, 3)]).toEqual([255, 0, 0])
	})

	test(`the longer side is scaled down to ${MAX_IMAGE_SIDE} pixels, keeping the proportions; small images are not enlarged`, async () => {
		const wide = await reencoded(await solid(5000, 100).png().toBuffer(), 'image/png')
		expect(wide.metadata).toMatchObject({ width: MAX_IMAGE_SIDE, height: 82 })
		const small = await reencoded(await solid(30, 20).jpeg().toBuffer(), 'image/jpeg')
		expect(small.metadata).toMatchObject({ width: 30, height: 20 })
	})
})

describe('reencodeImage refuses', () => {
	test('what does not decode as the image it claims to be', async () => {
		const jpeg = await solid(64, 64).jpeg().toBuffer()
		const png = await solid(8, 8).png().toBuffer()
		const headerOnly = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, ...Buffer.from('JFIF'), 0, 0xff, 0xd9])
		expect(await reencodeImage(headerOnly, 'image/jpeg')).toEqual({ image: 'unreadable' })
		expect(await reencodeImage(jpeg.subarray(0, jpeg.length / 2), 'image/jpeg')).toEqual({ image: 'unreadable' })
		expect(await reencodeImage(png, 'image/jpeg')).toEqual({ image: 'unreadable' })
		expect(await reencodeImage(Buffer.from('%PDF-1.4'), 'image/png')).toEqual({ image: 'unreadable' })
		expect(await reencodeImage(png, 'application/pdf')).toEqual({ image: 'unreadable' })
	})

	test('a decompression bomb, from its header and without decoding it', async () => {
		const header = Buffer.alloc(13)
		header.writeUInt32BE(50_000, 0) // width
		header.writeUInt32BE(50_000, 4) // height: 2.5 gigapixels, 7.5 GB as RGB
		header.set([8, 2], 8) // 8 bits, RGB
		const rows = deflateSync(Buffer.alloc(64 * 1024)) // the start of the first rows; a real bomb goes on for GBs
		const png = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', rows), IEND])

		const jpeg = Buffer.from(await solid(8, 8).jpeg().toBuffer())
		const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0])) // start of frame: height, then width, after length and precision
		jpeg.writeUInt16BE(60_000, frame + 5)
		jpeg.writeUInt16BE(60_000, frame + 7)

		const rss = process.memoryUsage().rss
		expect(await reencodeImage(png, 'image/png')).toEqual({ image: 'too-many-pixels' })
		expect(await reencodeImage(jpeg, 'image/jpeg')).toEqual({ image: 'too-many-pixels' })
		expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024)
	})
})
