import { deflateSync } from 'node:zlib'
import { PDFDocument, PDFName, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { DEFAULT_QR_COLOR } from '#app/domain/qr/palette.ts'
import { HEADLINE, pinLine, type BatchCode, type Nudge } from './batch-code.ts'
import { labelsPerPage, type LabelLayout } from './layouts.ts'
import { qrMatrix } from './qr-png.server.ts'

/** Light modules around the symbol, inside its box on the label (the page around it is white too). */
const QUIET_MODULES = 2
const PT_PER_MM = 72 / 25.4
/** Cap height of Helvetica, in em. */
const CAP_HEIGHT = 0.72
const QR_COLOR = DEFAULT_QR_COLOR

type TextLine = { baseline: number; size: number; maxWidth: number }
/** Where things go on one label, in mm from its top-left corner. */
type LabelPlan = { qr: { x: number; y: number; side: number }; headline: TextLine; pin: TextLine }

/**
 * The code as large as the label allows with two short lines: the headline above, the PIN below. On a round label
 * the code's box stays inside the circle and each line is fitted to the chord it sits on.
 */
export function labelPlan(layout: LabelLayout): LabelPlan {
	const { labelWidthMm: w, labelHeightMm: h } = layout
	const d = Math.min(w, h)
	const round = layout.shape === 'round'
	const headSize = clamp(d * 0.14, 5, 8)
	const pinSize = clamp(d * 0.2, 6, 11)
	const headCap = (headSize / PT_PER_MM) * CAP_HEIGHT
	const pinCap = (pinSize / PT_PER_MM) * CAP_HEIGHT
	const gap = d * 0.02
	const pad = round ? 0 : d * 0.05
	const text = headCap + pinCap + 2 * gap
	const side = round ? d * 0.6 : Math.min(w - 2 * pad, h - 2 * pad - text)
	const top = (h - side - text) / 2
	const qrY = top + headCap + gap
	const pinBaseline = qrY + side + gap + pinCap
	const width = (edgeY: number) => {
		if (!round) return w - 2 * pad
		const dy = Math.abs(edgeY - h / 2)
		return 2 * Math.sqrt(Math.max(0, (d / 2) ** 2 - dy ** 2)) - 4 * gap
	}
	return {
		qr: { x: (w - side) / 2, y: qrY, side },
		headline: { baseline: top + headCap, size: headSize, maxWidth: width(top) },
		pin: { baseline: pinBaseline, size: pinSize, maxWidth: width(pinBaseline) },
	}
}

/** Top-left corner of the label at `index` on its page, in mm, nudged. */
export function labelOrigin(layout: LabelLayout, index: number, nudge: Nudge) {
	const slot = index % labelsPerPage(layout)
	const column = slot % layout.columns
	const row = Math.floor(slot / layout.columns)
	return { x: layout.offsetXMm + column * layout.pitchXMm + nudge.x, y: layout.offsetYMm + row * layout.pitchYMm + nudge.y }
}

/**
 * One label a code, page after page. The modules go straight into each page's content stream as rectangles (vector:
 * sharp at any printer resolution, and a thousand codes take a fraction of what a thousand images would).
 */
export async function buildPdf(codes: readonly BatchCode[], layout: LabelLayout, nudge: Nudge, { title }: { title?: string } = {}) {
	const pdf = await PDFDocument.create()
	describe(pdf, title ?? `Sticker codes: ${layout.name}`)
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
	const plan = labelPlan(layout)
	const perPage = labelsPerPage(layout)
	const pageHeight = layout.pageHeightMm
	for (let first = 0; first < codes.length; first += perPage) {
		const page = pdf.addPage([pt(layout.pageWidthMm), pt(layout.pageHeightMm)])
		const font = page.node.newFontDictionary('HmhBold', bold.ref).toString()
		const onPage = codes.slice(first, first + perPage)
		const cuts: string[] = []
		const modules: string[] = []
		const text: string[] = []
		onPage.forEach((code, i) => {
			const origin = labelOrigin(layout, i, nudge)
			if (layout.cutLines) cuts.push(outline(layout, origin, pageHeight))
			const matrix = qrMatrix(code.scanUrl)
			const unit = plan.qr.side / (matrix.size + 2 * QUIET_MODULES)
			const x0 = origin.x + plan.qr.x + QUIET_MODULES * unit
			const y0 = origin.y + plan.qr.y + QUIET_MODULES * unit
			// In module units, rows counting down from the symbol's top-left corner: the rectangles are small integers.
			modules.push(`q ${n(pt(unit))} 0 0 ${n(-pt(unit))} ${n(pt(x0))} ${n(pt(pageHeight - y0))} cm`)
			const rects = moduleRects(matrix)
			for (let r = 0; r < rects.length; r += 4) modules.push(`${rects[r]} ${rects[r + 1]} ${rects[r + 2]} ${rects[r + 3]} re`)
			modules.push('f Q')
			text.push(centredText(HEADLINE, bold, font, origin, plan.headline, layout, QR_COLOR))
			text.push(centredText(pinLine(code.pin), bold, font, origin, plan.pin, layout, '#000000'))
		})
		const stream = [
			...(cuts.length ? ['q 0.75 G 0.5 w [3 3] 0 d', ...cuts, 'S Q'] : []),
			`q ${pdfColor(QR_COLOR)} rg`,
			...modules,
			'Q',
			...text,
		]
		addContent(pdf, page, stream.join('\n'))
	}
	return pdf.save()
}

/**
 * One page: the outline of every label where the batch PDF would print it, with the nudge applied, and a cross at
 * each centre. Held over a sheet of labels against the light, it shows a printer's offset before labels are spent.
 */
export async function buildCalibrationPdf(layout: LabelLayout, nudge: Nudge) {
	const pdf = await PDFDocument.create()
	describe(pdf, `Calibration: ${layout.name}`)
	const font = await pdf.embedFont(StandardFonts.Helvetica)
	const page = pdf.addPage([pt(layout.pageWidthMm), pt(layout.pageHeightMm)])
	const pageHeight = layout.pageHeightMm
	const lines: string[] = ['q 0 G 0.6 w']
	for (let i = 0; i < labelsPerPage(layout); i++) {
		const origin = labelOrigin(layout, i, nudge)
		lines.push(outline(layout, origin, pageHeight))
		const cx = origin.x + layout.labelWidthMm / 2
		const cy = origin.y + layout.labelHeightMm / 2
		lines.push(line(cx - 3, cy, cx + 3, cy, pageHeight), line(cx, cy - 3, cx, cy + 3, pageHeight))
	}
	lines.push('S Q')
	addContent(pdf, page, lines.join('\n'))
	const signed = (mm: number) => `${mm > 0 ? '+' : ''}${mm} mm`
	const text = [
		`${layout.name}: calibration page. Nudge: x ${signed(nudge.x)}, y ${signed(nudge.y)}.`,
		'Print at actual size (100%). Hold it over a label sheet against the light; if every outline is off the same way,',
		'nudge by that many millimetres: x + moves right, y + moves down. The same nudge applies to the batch PDF.',
	]
	const band = widestBand(layout)
	const lineHeight = Math.min(3.4, (band.height - 1) / text.length)
	const maxWidth = layout.pageWidthMm - 16
	const size = Math.min((lineHeight / 1.25) * PT_PER_MM, ...text.map((t) => (maxWidth * PT_PER_MM) / font.widthOfTextAtSize(t, 1)))
	const top = band.top + (band.height - lineHeight * text.length) / 2 + nudge.y
	text.forEach((t, i) => {
		const width = font.widthOfTextAtSize(t, size)
		const baseline = top + (i + 1) * lineHeight - (lineHeight - (size / PT_PER_MM) * CAP_HEIGHT) / 2
		page.drawText(t, { x: pt(layout.pageWidthMm / 2 + nudge.x) - width / 2, y: pt(pageHeight - baseline), size, font, color: rgb(0, 0, 0) })
	})
	return pdf.save()
}

/** The tallest strip across the page free of labels (a margin or the gap between two rows): room for the instructions. */
function widestBand(layout: LabelLayout) {
	const bottomOfLast = layout.offsetYMm + (layout.rows - 1) * layout.pitchYMm + layout.labelHeightMm
	const bands = [
		{ top: 0, height: layout.offsetYMm },
		{ top: bottomOfLast, height: layout.pageHeightMm - bottomOfLast },
		...(layout.rows > 1 ? [{ top: layout.offsetYMm + layout.labelHeightMm, height: layout.pitchYMm - layout.labelHeightMm }] : []),
	]
	return bands.reduce((best, band) => (band.height > best.height ? band : best))
}

/** A line of text centred on the label, shrunk to fit its width: raw operators in the page's one content stream. */
function centredText(
	text: string,
	font: PDFFont,
	fontName: string,
	origin: { x: number; y: number },
	line: TextLine,
	layout: LabelLayout,
	color: string,
) {
	const size = Math.min(line.size, (line.maxWidth * PT_PER_MM) / font.widthOfTextAtSize(text, 1))
	const x = pt(origin.x + layout.labelWidthMm / 2) - font.widthOfTextAtSize(text, size) / 2
	const y = pt(layout.pageHeightMm - origin.y - line.baseline)
	return `BT ${fontName} ${n(size)} Tf ${pdfColor(color)} rg ${n(x)} ${n(y)} Td ${font.encodeText(text).toString()} Tj ET`
}

function describe(pdf: PDFDocument, title: string) {
	pdf.setTitle(title)
	pdf.setAuthor('Hit Me Helpers')
	pdf.setCreator('Hit Me Helpers')
}

/** A page's extra content stream of raw operators, compressed, in its own graphics state. */
function addContent(pdf: PDFDocument, page: PDFPage, operators: string) {
	const stream = pdf.context.stream(deflateSync(Buffer.from(operators, 'latin1')), { Filter: PDFName.of('FlateDecode') })
	page.node.addContentStream(pdf.context.register(stream))
}

/**
 * Dark modules as rectangles: each row's horizontal runs, a run merged with the identical run of the rows below it.
 * Flat [column, row, width, height, …] in modules.
 */
export function moduleRects(matrix: { size: number; data: Uint8Array }) {
	const { size, data } = matrix
	const openWidth = new Int32Array(size)
	const openRow = new Int32Array(size)
	const runs = new Int32Array(size)
	const rects: number[] = []
	for (let row = 0; row <= size; row++) {
		runs.fill(0)
		for (let col = 0; row < size && col < size;) {
			if (!data[row * size + col]) {
				col++
				continue
			}
			const start = col
			while (col < size && data[row * size + col]) col++
			runs[start] = col - start
		}
		for (let col = 0; col < size; col++) {
			const width = openWidth[col]!
			if (width === 0) continue
			if (runs[col] === width) runs[col] = 0
			else {
				rects.push(col, openRow[col]!, width, row - openRow[col]!)
				openWidth[col] = 0
			}
		}
		for (let col = 0; col < size; col++) {
			if (runs[col] === 0) continue
			openWidth[col] = runs[col]!
			openRow[col] = row
		}
	}
	return rects
}

/** mm from the page's top-left to PDF operators (points from its bottom-left). */
function rect(x: number, y: number, width: number, height: number, pageHeight: number) {
	return `${n(pt(x))} ${n(pt(pageHeight - y - height))} ${n(pt(width))} ${n(pt(height))} re`
}

function line(x1: number, y1: number, x2: number, y2: number, pageHeight: number) {
	return `${n(pt(x1))} ${n(pt(pageHeight - y1))} m ${n(pt(x2))} ${n(pt(pageHeight - y2))} l`
}

/** A label's outline as a path: its rectangle, or its circle as four Bézier quarters. */
function outline(layout: LabelLayout, origin: { x: number; y: number }, pageHeight: number) {
	const { labelWidthMm: w, labelHeightMm: h } = layout
	if (layout.shape === 'rect') return rect(origin.x, origin.y, w, h, pageHeight)
	const r = pt(Math.min(w, h) / 2)
	const cx = pt(origin.x + w / 2)
	const cy = pt(pageHeight - origin.y - h / 2)
	const k = 0.5523 * r
	return [
		`${n(cx + r)} ${n(cy)} m`,
		`${n(cx + r)} ${n(cy + k)} ${n(cx + k)} ${n(cy + r)} ${n(cx)} ${n(cy + r)} c`,
		`${n(cx - k)} ${n(cy + r)} ${n(cx - r)} ${n(cy + k)} ${n(cx - r)} ${n(cy)} c`,
		`${n(cx - r)} ${n(cy - k)} ${n(cx - k)} ${n(cy - r)} ${n(cx)} ${n(cy - r)} c`,
		`${n(cx + k)} ${n(cy - r)} ${n(cx + r)} ${n(cy - k)} ${n(cx + r)} ${n(cy)} c h`,
	].join(' ')
}

const pt = (mm: number) => mm * PT_PER_MM
const n = (value: number) => String(Math.round(value * 100) / 100)
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))

function rgbOf(hex: string): [number, number, number] {
	const value = Number.parseInt(hex.slice(1), 16)
	return [((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255]
}

const pdfColor = (hex: string) =>
	rgbOf(hex)
		.map((c) => String(Math.round(c * 1000) / 1000))
		.join(' ')
