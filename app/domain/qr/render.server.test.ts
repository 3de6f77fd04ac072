import { fileURLToPath } from 'node:url'
import { Resvg } from '@resvg/resvg-js'
import { describe, expect, test } from 'vitest'
import { customTextStatus, QR_COLORS } from './palette.ts'
import { qrFileName, renderQrPng, renderQrPngAsync, renderQrSvg, type QrRenderOptions } from './render.server.ts'
import { decodeQr } from '#tests/zbar.ts'

const SCAN_URL = 'https://hmh.example/scan/AbCdEfGhIjKlMnOpQrStUvWx'
const FONT = fileURLToPath(new URL('../../assets/fonts/DejaVuSans-Bold.ttf', import.meta.url))
const decode = decodeQr

/** Lays a PNG over a solid colour, as a sticker printer or a web page would. */
function flatten(png: Buffer, background: string) {
	const { width, height } = pngSize(png)
	const href = `data:image/png;base64,${png.toString('base64')}`
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/><image href="${href}" width="${width}" height="${height}"/></svg>`
	return new Resvg(svg).render()
}

function pngSize(png: Buffer) {
	return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), colorType: png.readUInt8(25) }
}

const shapes = [
	['square', false],
	['circular', true],
] as const

describe('renderQrPng decodes to the scan URL with zbar', () => {
	test('with the default options: circular, Medical Red, 400 px', async () => {
		const png = renderQrPng({ data: SCAN_URL })
		expect(pngSize(png)).toMatchObject({ width: 400, height: 400 })
		expect(renderQrSvg({ data: SCAN_URL })).toContain('stroke="#DC2626"')
		expect(await decode(png)).toBe(SCAN_URL)
	})

	describe.each(shapes)('%s', (_shape, circular) => {
		test.each(QR_COLORS.map((c) => [c.name, c.hex]))('%s %s', async (_name, color) => {
			const svg = renderQrSvg({ data: SCAN_URL, color, circular })
			expect(svg).toContain(`fill="${color}"`)
			expect(await decode(renderQrPng({ data: SCAN_URL, color, circular }))).toBe(SCAN_URL)
		})

		test.each([
			['ALLERGIC TO SULFA', '#000000'],
			['ALLERGIC TO SULFA', '#FFFFFF'],
			['PACEMAKER ALLERGY 1234567', '#000000'],
			['PACEMAKER ALLERGY 1234567', '#FFFFFF'],
			['WWWWWWWWWWWWWWWW', '#FFFFFF'],
			['DNR', '#DC2626'],
		])('with custom text %j in %s', async (customText, textColor) => {
			expect(customTextStatus(customText).valid).toBe(true)
			const options = { data: SCAN_URL, circular, customText, textColor, color: '#2563EB' }
			expect(renderQrSvg(options)).toContain(`>${customText}<`)
			expect(await decode(renderQrPng(options))).toBe(SCAN_URL)
		})

		test('with a transparent background: alpha kept, decodes once laid on white', async () => {
			const png = renderQrPng({ data: SCAN_URL, circular, transparentBackground: true, customText: 'EPILEPSY' })
			expect(pngSize(png).colorType).toBe(6)
			const onBlack = flatten(png, '#000000').pixels
			expect([...onBlack.subarray(0, 4)]).toEqual([0, 0, 0, 255])
			expect(await decode(flatten(png, '#FFFFFF').asPng())).toBe(SCAN_URL)
		})

		test('at thumbnail size (200 px)', async () => {
			expect(await decode(renderQrPng({ data: SCAN_URL, circular, width: 200 }))).toBe(SCAN_URL)
		})
	})

	test('renderQrPngAsync gives the same PNG', async () => {
		const options = { data: SCAN_URL, customText: 'ON WARFARIN', color: '#EC4899' }
		const png = await renderQrPngAsync(options)
		expect(png.equals(renderQrPng(options))).toBe(true)
		expect(await decode(png)).toBe(SCAN_URL)
	})

	test('zbar reports nothing for an image without a code', async () => {
		const blank = new Resvg(
			'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="#fff"/></svg>',
		)
		expect(await decode(blank.render().asPng())).toBe('')
	})

	test('a pale colour given by a caller is darkened, and still decodes', async () => {
		const svg = renderQrSvg({ data: SCAN_URL, color: '#FFFF00', circular: false })
		expect(svg).not.toContain('#FFFF00')
		expect(await decode(renderQrPng({ data: SCAN_URL, color: '#FFFF00', circular: false }))).toBe(SCAN_URL)
	})
})

describe('renderQrSvg', () => {
	const variants: QrRenderOptions[] = shapes.flatMap(([, circular]) => [
		{ data: SCAN_URL, circular },
		{ data: SCAN_URL, circular, customText: 'ON WARFARIN', textColor: '#FFFFFF', transparentBackground: true },
	])

	test.each(variants)('is self-contained: %j', (options) => {
		const svg = renderQrSvg(options)
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="400" height="\d+" viewBox="[\d. ]+">/)
		expect(svg).not.toMatch(/href="(?!#)/)
		expect(svg).not.toMatch(/url\(|<image|<script|@import/)
		for (const [, ref] of svg.matchAll(/href="#([^"]+)"/g)) expect(svg).toContain(`id="${ref}"`)
	})

	test('square with text is taller than wide; circular is square', () => {
		const square = renderQrSvg({ data: SCAN_URL, circular: false, customText: 'DNR' })
		expect(square).toMatch(/width="400" height="(4[1-9]\d|[5-9]\d\d)"/)
		expect(renderQrSvg({ data: SCAN_URL, customText: 'DNR' })).toMatch(/width="400" height="400"/)
	})

	test('the widest text allowed stays inside the picture', () => {
		const options = { data: SCAN_URL, circular: false, transparentBackground: true, textColor: '#000000' }
		const bare = new Resvg(renderQrSvg(options)).getBBox()
		const svg = renderQrSvg({ ...options, customText: 'WWWWWWWWWWWWWWWW' })
		const box = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: [FONT] } }).getBBox()
		expect(box?.height).toBeGreaterThan(bare?.height ?? Infinity)
		expect(box?.x).toBeGreaterThanOrEqual(0)
		const viewBoxWidth = Number(/viewBox="0 0 ([\d.]+) /.exec(svg)?.[1])
		expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(viewBoxWidth)
	})

	test('escapes the custom text', () => {
		const svg = renderQrSvg({ data: SCAN_URL, customText: `<b>&"'` })
		expect(svg).toContain('&lt;b&gt;&amp;&quot;&#39;')
		expect(svg).not.toContain('<b>')
	})

	test('white text on a white background gets a plate; black text on Classic Black turns white', () => {
		const plate = renderQrSvg({ data: SCAN_URL, circular: false, customText: 'DNR', textColor: '#FFFFFF', color: '#16A34A' })
		expect(plate).toMatch(/<rect [^>]*rx="[^"]+" fill="#16A34A"\/><text [^>]*fill="#FFFFFF">DNR</)
		const ring = renderQrSvg({ data: SCAN_URL, customText: 'DNR', textColor: '#000000', color: '#000000' })
		expect(ring).toMatch(/<text [^>]*fill="#FFFFFF">/)
	})

	test('refuses what would break the SVG', () => {
		expect(() => renderQrSvg({ data: SCAN_URL, color: 'red"/><script>' })).toThrow(TypeError)
		expect(() => renderQrSvg({ data: SCAN_URL, width: 10 })).toThrow(RangeError)
	})
})

test('qrFileName names the PNG by shape, id and date', () => {
	const date = new Date('2026-11-22T23:30:00Z')
	expect(qrFileName({ shape: 'circular', id: 42, date })).toBe('hmh-qr-circular-42-2026-11-22.png')
	expect(qrFileName({ shape: 'square', id: '../7', date })).toBe('hmh-qr-square-7-2026-11-22.png')
})
