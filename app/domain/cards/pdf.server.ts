import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib'
import type { Box, TextOp } from './column.ts'
import { cardFontBytes } from './fonts.server.ts'
import { INK } from './layout.ts'
import { qrRuns, runsPath } from '#app/domain/qr/runs.ts'

// What the wallet card and the fridge sheet draw with: boxes and lines measured from the page's top-left corner.

export type RectOp = {
	kind: 'rect'
	x: number
	top: number
	width: number
	height: number
	fill?: string
	stroke?: string
	lineWidth?: number
}
export type PdfOp = TextOp | RectOp
export type CardFonts = { regular: PDFFont; bold: PDFFont }

const WHITE = '#FFFFFF'
const BLACK = '#000000'

export const text = (value: string, x: number, top: number, size: number, bold: boolean, color: string): TextOp => ({
	kind: 'text',
	text: value,
	x,
	top,
	size,
	bold,
	color,
})

export function color(hex: string) {
	const n = Number.parseInt(hex.slice(1), 16)
	return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255)
}

/** Ops measure from the page's top; PDF from its bottom. */
export const fromBottom = (page: PDFPage, top: number) => page.getHeight() - top

/**
 * A new document in the card font (DejaVu Sans Condensed, embedded as a subset, so the text is real text in any
 * language), with its title, subject and language set, and the photo (a JPEG) embedded when there is one.
 */
export async function cardDocument(meta: { title: string; subject: string; lang: string; now: Date }, photo: Uint8Array | null) {
	const pdf = await PDFDocument.create()
	pdf.registerFontkit(fontkit)
	pdf.setTitle(meta.title, { showInWindowTitleBar: true })
	pdf.setSubject(meta.subject)
	pdf.setLanguage(meta.lang)
	pdf.setCreator('Hit Me Helpers')
	pdf.setProducer('Hit Me Helpers')
	pdf.setCreationDate(meta.now)
	pdf.setModificationDate(meta.now)
	const fonts: CardFonts = {
		regular: await pdf.embedFont(cardFontBytes('regular'), { subset: true }),
		bold: await pdf.embedFont(cardFontBytes('bold'), { subset: true }),
	}
	// pdf-lib reads a JPEG from the start of its ArrayBuffer, not of the view: a photo that arrived inside a larger message
	// (a Buffer, whose slice() shares that memory) is copied first.
	const image = photo ? await pdf.embedJpg(Uint8Array.from(photo)) : null
	return { pdf, fonts, image }
}

export function drawOp(page: PDFPage, op: PdfOp, fonts: CardFonts) {
	if (op.kind === 'text') {
		// The line box is 1.2 em; DejaVu's ascent is about 0.93 em.
		page.drawText(op.text, {
			x: op.x,
			y: fromBottom(page, op.top + op.size * 0.95),
			size: op.size,
			font: op.bold ? fonts.bold : fonts.regular,
			color: color(op.color),
		})
		return
	}
	page.drawRectangle({
		x: op.x,
		y: fromBottom(page, op.top + op.height),
		width: op.width,
		height: op.height,
		color: op.fill ? color(op.fill) : undefined,
		borderColor: op.stroke ? color(op.stroke) : undefined,
		borderWidth: op.stroke ? (op.lineWidth ?? 1) : 0,
	})
}

/** Scaled to fit its box whole, centred, with a thin frame. */
export function drawPhoto(page: PDFPage, image: PDFImage, box: Box) {
	const scale = Math.min(box.width / image.width, box.height / image.height)
	const width = image.width * scale
	const height = image.height * scale
	const x = box.x + (box.width - width) / 2
	const top = box.top + (box.height - height) / 2
	page.drawImage(image, { x, y: fromBottom(page, top + height), width, height })
	page.drawRectangle({ x, y: fromBottom(page, top + height), width, height, borderColor: color(INK), borderWidth: 0.5 })
}

/** Black modules on white, the quiet zone included in the box; one vector path. */
export function drawQr(page: PDFPage, data: string, box: Box) {
	const { side, runs } = qrRuns(data)
	const module = box.width / side
	page.drawRectangle({ x: box.x, y: fromBottom(page, box.top + box.height), width: box.width, height: box.height, color: color(WHITE) })
	page.drawSvgPath(runsPath(runs), { x: box.x, y: fromBottom(page, box.top), scale: module, color: color(BLACK), borderWidth: 0 })
}
