import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * Every QR symbol Debian's zbarimg finds in each image file (no order promised within a file), one zbarimg run for
 * them all: its XML output names the file each symbol came from.
 */
async function decodeFiles(files: string[]) {
	let xml = ''
	try {
		xml = (await run('zbarimg', ['--xml', '-q', '-Sdisable', '-Sqrcode.enable', ...files], { maxBuffer: 16 * 1024 * 1024 })).stdout
	} catch (error) {
		// 4: no symbol in any file.
		if ((error as { code?: unknown }).code !== 4) throw error
		xml = (error as { stdout?: string }).stdout ?? ''
	}
	const found = new Map<string, string[]>()
	for (const source of xml.split('<source href=').slice(1)) {
		const href = /^'([^']*)'/.exec(source)?.[1] ?? ''
		const symbols = [...source.matchAll(/<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g)].map((match) => match[1]!)
		found.set(href, symbols)
	}
	return files.map((file) => found.get(file) ?? [])
}

/** Every QR symbol in each image (PNG, PGM, …), one zbarimg run for them all; one array per image, in order. */
export async function decodeImages(images: Uint8Array[]) {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-zbar-'))
	try {
		const files = await Promise.all(
			images.map(async (image, i) => {
				const file = join(dir, `image-${i}`)
				await writeFile(file, image)
				return file
			}),
		)
		return await decodeFiles(files)
	} finally {
		await rm(dir, { recursive: true, force: true })
	}
}

export type PdfRegion = { page: number; xMm: number; yMm: number; widthMm: number; heightMm: number }

/**
 * What zbarimg reads in each region of a PDF (mm from a page's top-left corner), one array per region: a phone's view of
 * one label. Each page is rendered once (poppler, grey); zbar finds every symbol of a crowded sheet less reliably than
 * one at a time (it missed about 1 code in 25 on full pages of 20), so labels are read one by one.
 */
export async function decodePdfRegions(pdf: Uint8Array, regions: PdfRegion[], { dpi = 150 } = {}) {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-pdf-'))
	try {
		const file = join(dir, 'doc.pdf')
		await writeFile(file, pdf)
		const pages = new Map<number, Grey>()
		for (const page of new Set(regions.map((region) => region.page))) {
			const out = join(dir, `page-${page}`)
			await run('pdftoppm', ['-r', String(dpi), '-gray', '-f', String(page), '-l', String(page), '-singlefile', file, out])
			pages.set(page, parsePgm(await readFile(`${out}.pgm`)))
		}
		const px = (mm: number) => Math.round((mm / 25.4) * dpi)
		const crops = await Promise.all(
			regions.map(async (region, i) => {
				const crop = join(dir, `region-${i}.pgm`)
				await writeFile(crop, cropPgm(pages.get(region.page)!, px(region.xMm), px(region.yMm), px(region.widthMm), px(region.heightMm)))
				return crop
			}),
		)
		return await decodeFiles(crops)
	} finally {
		await rm(dir, { recursive: true, force: true })
	}
}

type Grey = { width: number; height: number; pixels: Uint8Array }

function parsePgm(pgm: Buffer): Grey {
	const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))
	if (!header) throw new Error('not an 8-bit PGM')
	return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length) }
}

/** A rectangle of the image (white outside the page) as a PGM. */
function cropPgm(image: Grey, x: number, y: number, width: number, height: number) {
	const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1')
	const pixels = Buffer.alloc(width * height, 255)
	for (let row = 0; row < height; row++) {
		const sourceRow = y + row
		if (sourceRow < 0 || sourceRow >= image.height) continue
		for (let col = 0; col < width; col++) {
			const sourceCol = x + col
			if (sourceCol >= 0 && sourceCol < image.width) pixels[row * width + col] = image.pixels[sourceRow * image.width + sourceCol]!
		}
	}
	return Buffer.concat([header, pixels])
}

/** pdfinfo's fields (Pages, Page size, …); `-f 1 -l N` adds one "Page N size" per page. */
export async function pdfInfo(pdf: Uint8Array, { pages }: { pages?: number } = {}) {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-pdfinfo-'))
	try {
		const file = join(dir, 'doc.pdf')
		await writeFile(file, pdf)
		const args = pages ? ['-f', '1', '-l', String(pages), file] : [file]
		const { stdout } = await run('pdfinfo', args)
		return Object.fromEntries(
			stdout
				.split('\n')
				.map((line) => /^([^:]+):\s*(.*)$/.exec(line))
				.filter((match) => match !== null)
				.map((match) => [match[1]!.trim(), match[2]!.trim()]),
		)
	} finally {
		await rm(dir, { recursive: true, force: true })
	}
}

/** What zbarimg reads in a square box given in PDF points from the top-left corner of page 1, with `marginPt` around it. */
export async function decodePdfBox(pdf: Uint8Array, box: { left: number; top: number; side: number }, { marginPt = 10, dpi = 300 } = {}) {
	const mm = 25.4 / 72
	const side = (box.side + 2 * marginPt) * mm
	const [found] = await decodePdfRegions(
		pdf,
		[{ page: 1, xMm: (box.left - marginPt) * mm, yMm: (box.top - marginPt) * mm, widthMm: side, heightMm: side }],
		{ dpi },
	)
	return found
}
