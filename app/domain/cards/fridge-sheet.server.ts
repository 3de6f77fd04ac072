import { LineCapStyle, type PDFPage } from 'pdf-lib'
import { layListColumn, type ColumnStyle, type ListSpec } from './column.ts'
import { colon, type SheetFacts } from './facts.ts'
import { measureCardText as measure } from './fonts.server.ts'
import { DNR_BORDER, DNR_FILL, fitText, INK, RED, wrapText } from './layout.ts'
import type { Paper } from './options.ts'
import { cardDocument, color, drawOp, drawPhoto, drawQr, fromBottom, text, type PdfOp } from './pdf.server.ts'

/** `photo`: a JPEG, drawn whole in the frame beside the name. */
export type FridgeSheetInput = { facts: SheetFacts; scanUrl: string; photo: Uint8Array | null; paper: Paper; now?: Date }

/** In points: US Letter (8.5 × 11 in) and ISO A4 (210 × 297 mm). */
export const PAPER_SIZES: Record<Paper, { width: number; height: number }> = {
	letter: { width: 612, height: 792 },
	a4: { width: 595.28, height: 841.89 },
}

/** Large type: the lists' size is the largest of these at which everything fits, never less than the last. */
const BODY_SIZES = [16, 15, 14] as const
export const MARGIN = 28
const BAND = 52
const QR_SIDE = 126
const QR_COLUMN = 146
const GUTTER = 14
const PHOTO = { width: 72, height: 90 }
const WHITE = '#FFFFFF'
const CUT = '#4B5563'

/** Where the QR code sits on each paper, in points from the page's top-left corner (for the tests that read it back). */
export function sheetQrBox(paper: Paper) {
	return { left: PAPER_SIZES[paper].width - MARGIN - QR_COLUMN + (QR_COLUMN - QR_SIDE) / 2, top: MARGIN + BAND + 10, side: QR_SIDE }
}

const listStyle = (size: number): ColumnStyle => ({
	size,
	lineHeight: size * 1.2,
	gap: size * 0.55,
	indent: size * 0.9,
	ink: INK,
	moreColor: RED,
	itemLines: 4,
	heading: { size: size + 2, lineHeight: (size + 2) * 1.2 },
})

/**
 * The fridge sheet: one page in large type with everything the responder page shows (who, the code status, the critical
 * flags, conditions, allergies, medications, contacts, identity, insurance, blood type, notes), the QR code, when it was
 * last confirmed, and below a dashed cut line the label for its envelope. The lists take two columns at the largest
 * size from 16 down to 14 pt at which all of them fit; past that, a list cut short ends with "+N more: scan the code".
 */
export async function renderFridgeSheetPdf({ facts, scanUrl, photo, paper, now = new Date() }: FridgeSheetInput): Promise<Uint8Array> {
	const size = PAPER_SIZES[paper]
	const meta = { title: `${facts.labels.title}: ${facts.name}`, subject: facts.labels.vialOfLife, lang: facts.lang, now }
	const { pdf, fonts, image } = await cardDocument(meta, photo)
	const page = pdf.addPage([size.width, size.height])
	const inner = size.width - 2 * MARGIN

	const ops: PdfOp[] = [...header(facts, inner)]
	const who = person(facts, inner - QR_COLUMN - GUTTER, image !== null)
	const qr = sheetQrBox(paper)
	const caption = wrapText(facts.labels.scanForAll, QR_COLUMN, 14, measure, { bold: true, maxLines: 3 })
	caption.forEach((line, i) => {
		const x = qr.left + (QR_SIDE - measure(line, 14, true)) / 2
		ops.push(text(line, x, qr.top + QR_SIDE + 4 + i * 17, 14, true, INK))
	})
	ops.push(...who.ops)

	const label = envelopeLabel(facts, size, inner)
	const cutTop = label.top - 14
	// Scissors at the start of the cut line, centred on it.
	ops.push(text('✂', MARGIN - 2, cutTop - 16 * 0.6, 16, false, CUT))
	const confirmed = wrapText(facts.confirmed, inner, 14, measure, { maxLines: 2 })
	const confirmedTop = cutTop - 10 - confirmed.length * 16.8
	confirmed.forEach((line, i) => ops.push(text(line, MARGIN, confirmedTop + i * 16.8, 14, false, INK)))

	const listsTop = Math.max(who.bottom, qr.top + QR_SIDE + 4 + caption.length * 17) + 10
	ops.push(...columns(facts, { top: listsTop, height: confirmedTop - 8 - listsTop, width: inner }), ...label.ops)

	for (const op of ops) drawOp(page, op, fonts)
	if (image) drawPhoto(page, image, { x: MARGIN, top: who.top, width: PHOTO.width, height: PHOTO.height })
	drawQr(page, scanUrl, { x: qr.left, top: qr.top, width: QR_SIDE, height: QR_SIDE })
	drawCutLine(page, cutTop, size.width)
	return pdf.save()
}

/** The red band: what the page is, and to call 911. */
function header(facts: SheetFacts, inner: number): PdfOp[] {
	const t = facts.labels
	const title = fitText(t.title.toLocaleUpperCase(facts.lang), inner - 24, measure, { largest: 18, smallest: 16, maxLines: 1, bold: true })
	const call = fitText(t.call911, inner - 24, measure, { largest: 14, smallest: 14, maxLines: 1, bold: true })
	return [
		{ kind: 'rect', x: MARGIN, top: MARGIN, width: inner, height: BAND, fill: RED },
		text(title.lines[0]!, MARGIN + 12, MARGIN + 7, title.size, true, WHITE),
		text(call.lines[0]!, MARGIN + 12, MARGIN + 7 + 18 * 1.2 + 1, call.size, true, WHITE),
	]
}

/** Left of the QR code: the photo, the name, age and date of birth, blood type, then the code status in its box. */
function person(facts: SheetFacts, width: number, hasPhoto: boolean) {
	const t = facts.labels
	const top = MARGIN + BAND + 10
	const ops: PdfOp[] = []
	const nameX = MARGIN + (hasPhoto ? PHOTO.width + 12 : 0)
	const nameWidth = MARGIN + width - nameX
	const name = fitText(facts.name, nameWidth, measure, { largest: 30, smallest: 20, maxLines: 2, bold: true })
	let y = top
	for (const line of name.lines) {
		ops.push(text(line, nameX, y, name.size, true, INK))
		y += name.size * 1.2
	}
	const born = facts.born ? fitText(facts.born, nameWidth, measure, { largest: 16, smallest: 14, maxLines: 2 }) : null
	for (const line of born?.lines ?? []) {
		ops.push(text(line, nameX, y + 2, born!.size, false, INK))
		y += born!.size * 1.25
	}
	const blood = `${t.bloodType}${colon(facts.lang)}${facts.bloodType ?? '?'}`
	ops.push(text(wrapText(blood, nameWidth, 18, measure, { bold: true, maxLines: 1 })[0]!, nameX, y + 4, 18, true, INK))
	y = Math.max(y + 4 + 18 * 1.2, hasPhoto ? top + PHOTO.height : 0) + 8

	const status = fitText(facts.status.text, width - 24, measure, { largest: 24, smallest: 16, maxLines: 2, bold: true })
	const details = facts.status.details.flatMap((d) => wrapText(d, width - 24, 14, measure, { maxLines: 2 }))
	const height = 8 + status.lines.length * status.size * 1.2 + details.length * 16.8 + 7
	const emphatic = facts.status.emphatic
	ops.push({
		kind: 'rect',
		x: MARGIN,
		top: y,
		width,
		height,
		fill: emphatic ? DNR_FILL : WHITE,
		stroke: emphatic ? DNR_BORDER : INK,
		lineWidth: emphatic ? 3 : 1.5,
	})
	status.lines.forEach((line, i) =>
		ops.push(text(line, MARGIN + 12, y + 8 + i * status.size * 1.2, status.size, true, emphatic ? DNR_BORDER : INK)),
	)
	const detailsTop = y + 8 + status.lines.length * status.size * 1.2
	details.forEach((line, i) => ops.push(text(line, MARGIN + 12, detailsTop + i * 16.8, 14, false, INK)))
	return { ops, top, bottom: y + height }
}

/**
 * The lists in two columns, the first ones on the left, split where the columns come out most even, at the largest size
 * at which everything fits. When even 14 pt does not hold everything: the split that leaves the fewest lists with
 * nothing shown, then the fewest items out; each column shares its room out (the critical flags whole, then a couple
 * each of allergies, medications, contacts and conditions, before anything grows; the later lists of a column give
 * theirs up first), and a list cut short ends with "+N more: scan the code".
 */
function columns(facts: SheetFacts, area: { top: number; height: number; width: number }) {
	const t = facts.labels
	// The responder page's order.
	const lists: ListSpec[] = [
		{ heading: t.critical, items: facts.flags, headingColor: RED, bold: true, hideWhenEmpty: true, min: facts.flags.length },
		{ heading: t.conditions, items: facts.conditions, min: 1 },
		{ heading: t.allergies, items: facts.allergies, min: 2 },
		{ heading: t.medications, items: facts.medications, min: 2 },
		{ heading: t.contacts, items: facts.contacts.map((c) => [{ text: c.name }, { text: c.phone, bold: true }]), min: 2 },
		{ heading: t.identity, items: facts.identity, hideWhenEmpty: true },
		{ heading: t.insurance, items: facts.insurance, hideWhenEmpty: true },
		{ heading: t.notes, items: facts.notes, hideWhenEmpty: true },
	].filter((list) => list.items.length > 0 || !list.hideWhenEmpty)
	const columnWidth = (area.width - 2 * GUTTER) / 2
	const box = (x: number, height: number) => ({ x, top: area.top, width: columnWidth, height })
	const lay = (size: number, split: number, height: number) => [
		layListColumn(lists.slice(0, split), box(MARGIN, height), listStyle(size), measure, facts),
		layListColumn(lists.slice(split), box(MARGIN + columnWidth + 2 * GUTTER, height), listStyle(size), measure, facts),
	]
	const splits = Array.from({ length: lists.length - 1 }, (_, i) => i + 1)
	const cheapest = (cost: (split: number) => number) =>
		splits.map((split) => ({ split, cost: cost(split) })).reduce((best, next) => (next.cost < best.cost ? next : best))
	for (const size of BODY_SIZES) {
		const even = cheapest((split) => Math.max(...lay(size, split, Infinity).map((column) => column.height)))
		if (even.cost <= area.height) return lay(size, even.split, area.height).flatMap((column) => column.ops)
	}
	const smallest = BODY_SIZES.at(-1)!
	const least = cheapest((split) => {
		const laid = lay(smallest, split, area.height)
		// A column whose headings and "+N more" lines alone are taller than the room (a very long name and code status on top).
		const spills = laid.some((column) => column.height > area.height + 0.01)
		const hidden = laid.flatMap((column) => column.hidden)
		const empty = hidden.filter((count, i) => count > 0 && count === lists[i]!.items.length).length
		return (spills ? 1e9 : 0) + empty * 10_000 + hidden.reduce((sum, count) => sum + count, 0)
	})
	return lay(smallest, least.split, area.height).flatMap((column) => column.ops)
}

/** The label to cut off for the sheet's envelope, at the foot of the page. */
function envelopeLabel(facts: SheetFacts, page: { width: number; height: number }, inner: number) {
	const t = facts.labels
	const label = fitText(t.vialOfLife, inner - 32, measure, { largest: 24, smallest: 16, maxLines: 2, bold: true })
	const title = wrapText(t.title, inner - 32, 14, measure, { maxLines: 1 })[0]!
	const height = 8 + label.lines.length * label.size * 1.2 + 2 + 14 * 1.2 + 8
	const top = page.height - MARGIN - height
	const centred = (line: string, size: number, bold: boolean) => MARGIN + (inner - measure(line, size, bold)) / 2
	const ops: PdfOp[] = [{ kind: 'rect', x: MARGIN, top, width: inner, height, stroke: RED, lineWidth: 2.5 }]
	label.lines.forEach((line, i) =>
		ops.push(text(line, centred(line, label.size, true), top + 8 + i * label.size * 1.2, label.size, true, RED)),
	)
	ops.push(text(title, centred(title, 14, false), top + 8 + label.lines.length * label.size * 1.2 + 2, 14, false, INK))
	return { ops, top }
}

/** A dashed line across the page, `top` points from the page's top, after the scissors. */
function drawCutLine(page: PDFPage, top: number, width: number) {
	const y = fromBottom(page, top)
	page.drawLine({
		start: { x: MARGIN + 18, y },
		end: { x: width - MARGIN / 2, y },
		thickness: 1,
		color: color(CUT),
		dashArray: [6, 4],
		lineCap: LineCapStyle.Butt,
	})
}
