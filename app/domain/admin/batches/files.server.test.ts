import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Resvg } from '@resvg/resvg-js'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { parseCsv } from '#tests/csv.ts'
import { decodeQr } from '#tests/zbar.ts'
import { decodeImages, decodePdfRegions, pdfInfo } from '#tests/zbar-all.ts'
import { codesCsv, CSV_NAME, pngName, svgName, type BatchCode } from './batch-code.ts'
import { buildFile } from './files.server.ts'
import { qrPng } from './qr-png.server.ts'
import { buildCalibrationPdf, buildPdf, labelOrigin } from './sheet-pdf.server.ts'
import { buildDocx } from './word.server.ts'
import { buildPngZip, buildSvgZip } from './zips.server.ts'
import { LABEL_LAYOUTS, labelsPerPage, layoutById, type LabelLayout } from './layouts.ts'

const run = promisify(execFile)
const PT_PER_MM = 72 / 25.4

let work: string
beforeAll(async () => {
	work = await mkdtemp(join(tmpdir(), 'hmh-batch-files-'))
})
afterAll(async () => {
	await rm(work, { recursive: true, force: true })
})

/** Codes shaped like real ones (8-character PIN, a 24-character token), without a database. */
function sampleCodes(count: number, first = 9001): BatchCode[] {
	return Array.from({ length: count }, (_, i) => {
		const id = first + i
		const pin = `K${String(id).padStart(7, '7')}`.replace(/[01]/g, 'Z')
		return { id, pin, scanUrl: `https://hitmehelpers.example/scan/${'T0k3n-'.repeat(3)}${String(id).padStart(6, 'q')}` }
	})
}

async function saved(name: string, bytes: Uint8Array) {
	const file = join(work, name)
	await writeFile(file, bytes)
	return file
}

/** Names in a ZIP, as Info-ZIP's unzip lists them. */
async function unzipNames(file: string) {
	const { stdout } = await run('unzip', ['-Z1', file])
	return stdout.split('\n').filter(Boolean).sort()
}

async function unzipText(file: string, name: string) {
	return (await run('unzip', ['-p', file, name], { maxBuffer: 64 * 1024 * 1024 })).stdout
}

test('buildFile builds each format (what the render worker runs), and refuses an unknown layout', async () => {
	const codes = sampleCodes(2)
	const job = { codes, layout: 'ol5375', nudge: { x: 0, y: 0 } }
	const magic = async (format: 'png' | 'svg' | 'docx' | 'pdf') =>
		Buffer.from((await buildFile({ ...job, format })).subarray(0, 4)).toString('latin1')
	expect(await magic('png')).toBe('PK\x03\x04')
	expect(await magic('svg')).toBe('PK\x03\x04')
	expect(await magic('docx')).toBe('PK\x03\x04')
	expect(await magic('pdf')).toBe('%PDF')
	await expect(buildFile({ ...job, format: 'pdf', layout: 'nope' })).rejects.toThrow('Unknown label layout nope')
})

describe('PNG ZIP', () => {
	test('one PNG a code, each decoding to its scan URL, and the CSV', async () => {
		const codes = sampleCodes(12)
		const file = await saved('png.zip', await buildPngZip(codes))
		expect(await unzipNames(file)).toEqual([CSV_NAME, ...codes.map(pngName)].sort())
		expect(parseCsv(await unzipText(file, CSV_NAME))).toEqual([
			['id', 'pin', 'scan_url'],
			...codes.map((c) => [String(c.id), c.pin, c.scanUrl]),
		])
		const zip = await JSZip.loadAsync(await readFile(file))
		const pngs = await Promise.all(codes.map((code) => zip.file(pngName(code))!.async('uint8array')))
		expect(await decodeImages(pngs)).toEqual(codes.map((code) => [code.scanUrl]))
		// PNGs are stored, not compressed again.
		const { stdout } = await run('unzip', ['-v', file])
		expect(
			stdout
				.split('\n')
				.filter((line) => line.endsWith('.png'))
				.every((line) => /\bStored\b/.test(line)),
		).toBe(true)
	})

	test('each PNG is the house design: at least 600 px, Medical Red on white, 300 dpi', async () => {
		const png = qrPng('https://hitmehelpers.example/scan/x', 600)
		const width = png.readUInt32BE(16)
		expect(width).toBeGreaterThanOrEqual(600)
		expect(png.readUInt32BE(20)).toBe(width)
		const palette = png.subarray(png.indexOf('PLTE') + 4, png.indexOf('PLTE') + 10)
		expect([...palette]).toEqual([255, 255, 255, 0xdc, 0x26, 0x26])
		expect(png.readUInt32BE(png.indexOf('pHYs') + 4)).toBe(11811)
		expect(await decodeQr(png)).toBe('https://hitmehelpers.example/scan/x')
	})

	test('a CSV cell with a comma or a quote is quoted', () => {
		expect(codesCsv([{ id: 1, pin: 'AB"C', scanUrl: 'https://x.example/a,b' }])).toBe(
			'id,pin,scan_url\r\n1,"AB""C","https://x.example/a,b"\r\n',
		)
	})
})

describe('SVG ZIP', () => {
	test('the house renderer’s square SVG a code, and the CSV', async () => {
		const codes = sampleCodes(12)
		const file = await saved('svg.zip', await buildSvgZip(codes))
		expect(await unzipNames(file)).toEqual([CSV_NAME, ...codes.map(svgName)].sort())
		expect(parseCsv(await unzipText(file, CSV_NAME)).slice(1)).toEqual(codes.map((c) => [String(c.id), c.pin, c.scanUrl]))
		for (const code of [codes[0]!, codes[11]!]) {
			const svg = await unzipText(file, svgName(code))
			expect(svg).toBe(renderQrSvg({ data: code.scanUrl, circular: false }))
			expect(svg).toContain('fill="#DC2626"')
			expect(await decodeQr(new Resvg(svg).render().asPng())).toBe(code.scanUrl)
		}
	})
})

describe('Word document', () => {
	test('two codes a row, each cell the code, its PIN and its id', async () => {
		const codes = sampleCodes(13)
		const file = await saved('codes.docx', await buildDocx(codes))
		const names = await unzipNames(file)
		expect(names).toEqual(expect.arrayContaining(['[Content_Types].xml', 'word/document.xml', 'word/_rels/document.xml.rels']))
		const zip = await JSZip.loadAsync(await readFile(file))
		const xml = await zip.file('word/document.xml')!.async('string')
		const rows = xml.split('<w:tr>').slice(1)
		expect(rows).toHaveLength(7)
		for (const row of rows) expect(row.split('<w:tc>').length - 1).toBe(2)
		codes.forEach((code, i) => {
			const row = rows[Math.floor(i / 2)]!
			expect(row).toContain(`PIN ${code.pin}<`)
			expect(row).toContain(`Code ${code.id}<`)
			expect(row).toContain(`r:embed="rIdCode${code.id}"`)
		})
		expect(xml).not.toContain('@@code-image-')
		const rels = await zip.file('word/_rels/document.xml.rels')!.async('string')
		const media = names.filter((name) => name.startsWith('word/media/'))
		expect(media).toHaveLength(codes.length)
		for (const code of codes) {
			expect(rels).toContain(`Id="rIdCode${code.id}"`)
			expect(rels).toContain(`Target="media/${pngName(code)}"`)
		}
		const images = await Promise.all(codes.map((code) => zip.file(`word/media/${pngName(code)}`)!.async('uint8array')))
		expect(await decodeImages(images)).toEqual(codes.map((code) => [code.scanUrl]))
		expect(await zip.file('[Content_Types].xml')!.async('string')).toContain('Extension="png"')
	})
})

describe('PDF on label sheets', () => {
	test.each([
		['ol5375', 24, 2],
		['ol2679', 12, 1],
	])('%s: %i codes on %i pages, each decoding to its scan URL beside its PIN', async (layoutId, count, pages) => {
		const layout = layoutById(layoutId)!
		const codes = sampleCodes(count)
		const pdf = await buildPdf(codes, layout, { x: 0, y: 0 })
		const info = await pdfInfo(pdf)
		expect(info.Pages).toBe(String(pages))
		expect(info['Page size']).toMatch(/^612 x 792 pts/)
		expect(await decodePdfRegions(pdf, labelRegions(layout, codes.length, { x: 0, y: 0 }))).toEqual(codes.map((c) => [c.scanUrl]))
		const text = (await run('pdftotext', ['-layout', await saved(`${layoutId}.pdf`, pdf), '-'])).stdout
		for (const code of codes) expect(text).toContain(`PIN ${code.pin}`)
		expect(text).toContain('Scan in an emergency')
	})

	test('A4: the page is A4 and every code decodes', async () => {
		const codes = sampleCodes(20)
		const layout = layoutById('a4-grid')!
		const nudge = { x: -3, y: 10 }
		const pdf = await buildPdf(codes, layout, nudge)
		expect((await pdfInfo(pdf))['Page size']).toMatch(/^595\.2\d* x 841\.8\d* pts \(A4\)/)
		expect(await decodePdfRegions(pdf, labelRegions(layout, codes.length, nudge))).toEqual(codes.map((c) => [c.scanUrl]))
	})

	test('a nudge moves every label by that many millimetres', async () => {
		const layout = layoutById('ol330')!
		const codes = sampleCodes(1)
		const plain = await labelBox(await buildPdf(codes, layout, { x: 0, y: 0 }))
		const nudged = await labelBox(await buildPdf(codes, layout, { x: 4, y: -3 }))
		expect(nudged.xMin - plain.xMin).toBeCloseTo(4 * PT_PER_MM, 0)
		expect(nudged.yMin - plain.yMin).toBeCloseTo(-3 * PT_PER_MM, 0)
	})
})

describe('calibration page', () => {
	test.each(LABEL_LAYOUTS.map((layout) => [layout.id, layout] as const))('%s: one page of the layout’s size', async (_id, layout) => {
		const pdf = await buildCalibrationPdf(layout, { x: 0, y: 0 })
		const info = await pdfInfo(pdf)
		expect(info.Pages).toBe('1')
		const [width, height] = /^([\d.]+) x ([\d.]+) pts/.exec(info['Page size']!)!.slice(1).map(Number)
		expect(width).toBeCloseTo(layout.pageWidthMm * PT_PER_MM, 1)
		expect(height).toBeCloseTo(layout.pageHeightMm * PT_PER_MM, 1)
	})

	test.each(['ol2682', 'letter-grid'])('%s: an outline at every label, moved by the nudge', async (layoutId) => {
		const layout = layoutById(layoutId)!
		const nudge = { x: 3, y: -2 }
		const page = await grey(await buildCalibrationPdf(layout, nudge), 100)
		const slots = layout.columns * layout.rows
		for (let i = 0; i < slots; i++) {
			const origin = labelOrigin(layout, i, nudge)
			const left = { x: origin.x, y: origin.y + layout.labelHeightMm / 2 }
			// The outline's leftmost point is dark; 2 mm inside it is paper; where it would be without the nudge, too.
			expect(page.darkNear(left.x, left.y)).toBe(true)
			expect(page.darkNear(left.x + 2, left.y)).toBe(false)
			expect(page.darkNear(left.x - nudge.x, left.y - nudge.y)).toBe(false)
			// The cross at the centre.
			expect(page.darkNear(origin.x + layout.labelWidthMm / 2, origin.y + layout.labelHeightMm / 2)).toBe(true)
		}
		const text = (await run('pdftotext', [await saved('calibration.pdf', await buildCalibrationPdf(layout, nudge)), '-'])).stdout
		expect(text).toContain('Nudge: x +3 mm, y -2 mm')
	})
})

/** Where each of `count` codes is printed: its label, page by page. */
function labelRegions(layout: LabelLayout, count: number, nudge: { x: number; y: number }) {
	return Array.from({ length: count }, (_, i) => {
		const origin = labelOrigin(layout, i, nudge)
		const page = Math.floor(i / labelsPerPage(layout)) + 1
		return { page, xMm: origin.x, yMm: origin.y, widthMm: layout.labelWidthMm, heightMm: layout.labelHeightMm }
	})
}

/** The bounding box pdftotext gives the first "PIN" word: where the first label's text landed. */
async function labelBox(pdf: Uint8Array) {
	const { stdout } = await run('pdftotext', ['-bbox', await saved('bbox.pdf', pdf), '-'])
	const match = /<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>PIN</.exec(stdout)!
	return { xMin: Number(match[1]), yMin: Number(match[2]) }
}

/** The page as 8-bit grey pixels (poppler), read by millimetre. */
async function grey(pdf: Uint8Array, dpi: number) {
	const file = await saved('grey.pdf', pdf)
	await run('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', file, join(work, 'grey')])
	const pgm = await readFile(join(work, 'grey.pgm'))
	const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 40).toString('latin1'))!
	const [width, height] = [Number(header[1]), Number(header[2])]
	const pixels = pgm.subarray(header[0].length)
	const px = (mm: number) => Math.round((mm / 25.4) * dpi)
	return {
		/** Any pixel darker than mid-grey within ±0.5 mm. */
		darkNear(xMm: number, yMm: number) {
			const r = px(0.5)
			for (let y = px(yMm) - r; y <= px(yMm) + r; y++)
				for (let x = px(xMm) - r; x <= px(xMm) + r; x++)
					if (x >= 0 && y >= 0 && x < width && y < height && pixels[y * width + x]! < 128) return true
			return false
		},
	}
}
