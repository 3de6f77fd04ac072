import { LineCapStyle, type PDFPage } from 'pdf-lib'
import { listColumn, type Box, type ColumnStyle } from './column.ts'
import { colon, type CardFacts } from './facts.ts'
import { measureCardText as measure } from './fonts.server.ts'
import { DNR_BORDER, DNR_FILL, fitText, INK, RED, wrapText } from './layout.ts'
import { cardDocument, color, drawOp, drawPhoto, drawQr, fromBottom, text, type PdfOp } from './pdf.server.ts'

/** `photo`: a JPEG, drawn whole in the frame beside the name. */
export type WalletCardInput = { facts: CardFacts; scanUrl: string; photo: Uint8Array | null; now?: Date }

// A credit card (ISO/IEC 7810 ID-1, 3.375 in × 2.125 in) per panel; front and back side by side, folded along the middle.
export const PANEL_WIDTH = 243
export const PANEL_HEIGHT = 153
export const LETTER = { width: 612, height: 792 } as const
/** Kept clear inside the cut: a cut a little off the marks takes no text with it. */
const SAFE = 7
const CARD_LEFT = (LETTER.width - 2 * PANEL_WIDTH) / 2
const CARD_TOP = 96
const BAND = 16
const PHOTO = { width: 32, height: 40 }
const QR_SIDE = 84
const CROP = { offset: 4, length: 14 }
/** Where things sit, in points from the page's top-left corner (for the tests that read the page back). */
export const CARD_BOX = { left: CARD_LEFT, top: CARD_TOP, width: 2 * PANEL_WIDTH, height: PANEL_HEIGHT, safe: SAFE }
export const QR_BOX = { left: CARD_LEFT + PANEL_WIDTH + SAFE, top: CARD_TOP + SAFE, side: QR_SIDE }

const WHITE = '#FFFFFF'
const BLACK = '#000000'
const FOLD = '#6B7280'

const LIST_STYLE: ColumnStyle = { size: 6, lineHeight: 7.1, gap: 3, indent: 5, ink: INK, moreColor: RED, itemLines: 3 }

/**
 * The wallet card: one Letter page with the instruction line, the two panels between crop marks and a dashed fold
 * line, real text in an embedded (subset) Unicode font and the QR code as vector modules. Lists that do not fit end
 * with "+N more: scan the code"; nothing leaves its panel.
 */
export async function renderWalletCardPdf({ facts, scanUrl, photo, now = new Date() }: WalletCardInput): Promise<Uint8Array> {
	const meta = { title: `${facts.labels.title}: ${facts.name}`, subject: facts.labels.cutAndFold, lang: facts.lang, now }
	const { pdf, fonts, image } = await cardDocument(meta, photo)
	const page = pdf.addPage([LETTER.width, LETTER.height])

	const instruction = fitText(facts.labels.cutAndFold, 2 * PANEL_WIDTH, measure, { largest: 11, smallest: 8, maxLines: 1, bold: true })
	const ops: PdfOp[] = [
		{ kind: 'text', text: instruction.lines[0]!, x: CARD_LEFT, top: CARD_TOP - 42, size: instruction.size, bold: true, color: INK },
		...front(facts, image !== null),
		...back(facts, CARD_LEFT + PANEL_WIDTH),
	]
	for (const op of ops) drawOp(page, op, fonts)
	if (image) drawPhoto(page, image, { x: CARD_LEFT + SAFE, top: CARD_TOP + BAND + 5, width: PHOTO.width, height: PHOTO.height })
	drawQr(page, scanUrl, { x: QR_BOX.left, top: QR_BOX.top, width: QR_SIDE, height: QR_SIDE })
	drawMarks(page)
	return pdf.save()
}

/**
 * The front: who it is about, the code status, the critical flags (the conditions instead when there are none), and
 * when it was last confirmed.
 */
function front(facts: CardFacts, hasPhoto: boolean): PdfOp[] {
	const t = facts.labels
	const x0 = CARD_LEFT
	const inner = PANEL_WIDTH - 2 * SAFE
	const ops: PdfOp[] = [{ kind: 'rect', x: x0, top: CARD_TOP, width: PANEL_WIDTH, height: BAND, fill: RED }]
	const title = fitText(t.title.toLocaleUpperCase(facts.lang), inner, measure, { largest: 7.5, smallest: 5, maxLines: 1, bold: true })
	ops.push(text(title.lines[0]!, x0 + SAFE, CARD_TOP + (BAND - title.size * 1.2) / 2, title.size, true, WHITE))

	const identityTop = CARD_TOP + BAND + 5
	const nameX = x0 + SAFE + (hasPhoto ? PHOTO.width + 5 : 0)
	const nameWidth = x0 + PANEL_WIDTH - SAFE - nameX
	const name = fitText(facts.name, nameWidth, measure, { largest: 11, smallest: 7, maxLines: 2, bold: true })
	let y = identityTop
	for (const line of name.lines) {
		ops.push(text(line, nameX, y, name.size, true, INK))
		y += name.size * 1.2
	}
	const blood = wrapText(`${t.bloodType}${colon(facts.lang)}${facts.bloodType ?? '?'}`, nameWidth, 6.5, measure, {
		bold: true,
		maxLines: 1,
	})[0]!
	ops.push(text(blood, nameX, y + 1.5, 6.5, true, INK))
	y = Math.max(y + 1.5 + 6.5 * 1.2, hasPhoto ? identityTop + PHOTO.height : 0) + 4

	const statusSize = fitText(facts.status.text, inner - 8, measure, { largest: 9, smallest: 6, maxLines: 1, bold: true })
	const details = facts.status.details.map((d) => wrapText(d, inner - 8, 5.5, measure, { maxLines: 1 })[0]!)
	const boxHeight = 3 + statusSize.size * 1.2 + details.length * 6.4 + 2.5
	ops.push({
		kind: 'rect',
		x: x0 + SAFE,
		top: y,
		width: inner,
		height: boxHeight,
		fill: facts.status.emphatic ? DNR_FILL : WHITE,
		stroke: facts.status.emphatic ? DNR_BORDER : INK,
		lineWidth: facts.status.emphatic ? 1.5 : 0.8,
	})
	ops.push(text(statusSize.lines[0]!, x0 + SAFE + 4, y + 3, statusSize.size, true, facts.status.emphatic ? DNR_BORDER : INK))
	details.forEach((d, i) => ops.push(text(d, x0 + SAFE + 4, y + 3 + statusSize.size * 1.2 + i * 6.4, 5.5, false, INK)))
	y += boxHeight + 4

	const footer = wrapText(facts.confirmed, inner, 5, measure, { maxLines: 2 })
	const footerTop = CARD_TOP + PANEL_HEIGHT - SAFE + 1 - footer.length * 6
	footer.forEach((line, i) => ops.push(text(line, x0 + SAFE, footerTop + i * 6, 5, false, INK)))

	const box: Box = { x: x0 + SAFE, top: y, width: inner, height: footerTop - 2 - y }
	const lists = facts.flags.length
		? [{ heading: t.critical, items: facts.flags, headingColor: RED, bold: true }]
		: [{ heading: t.conditions, items: facts.conditions }]
	ops.push(...listColumn(lists, box, LIST_STYLE, measure, facts))
	return ops
}

/** The back: the QR code (and the conditions beneath it when the front holds critical flags); who to call, allergies and medications beside it. */
function back(facts: CardFacts, x0: number): PdfOp[] {
	const t = facts.labels
	const ops: PdfOp[] = []
	const caption = wrapText(t.scanForAll, QR_SIDE, 5.5, measure, { bold: true, maxLines: 2 })
	let y = CARD_TOP + SAFE + QR_SIDE + 1
	for (const line of caption) {
		ops.push(text(line, x0 + SAFE + (QR_SIDE - measure(line, 5.5, true)) / 2, y, 5.5, true, INK))
		y += 6.4
	}
	if (facts.flags.length) {
		const below: Box = { x: x0 + SAFE, top: y + 3, width: QR_SIDE, height: CARD_TOP + PANEL_HEIGHT - SAFE - (y + 3) }
		ops.push(...listColumn([{ heading: t.conditions, items: facts.conditions }], below, LIST_STYLE, measure, facts))
	}
	const columnX = x0 + SAFE + QR_SIDE + 6
	const column: Box = { x: columnX, top: CARD_TOP + SAFE, width: x0 + PANEL_WIDTH - SAFE - columnX, height: PANEL_HEIGHT - 2 * SAFE }
	const contacts = facts.contacts.map((c) => [{ text: c.name }, { text: c.phone, bold: true }])
	ops.push(
		...listColumn(
			[
				{ heading: t.contacts, items: contacts, min: 2, max: 2 },
				{ heading: t.allergies, items: facts.allergies, min: 1 },
				{ heading: t.medications, items: facts.medications, min: 1 },
			],
			column,
			LIST_STYLE,
			measure,
			facts,
		),
	)
	return ops
}

/** Crop marks outside the four corners of the cut, and the fold line with its marks above and below the card. */
function drawMarks(page: PDFPage) {
	const left = CARD_LEFT
	const right = CARD_LEFT + 2 * PANEL_WIDTH
	const top = fromBottom(page, CARD_TOP)
	const bottom = fromBottom(page, CARD_TOP + PANEL_HEIGHT)
	const ink = { thickness: 0.5, color: color(BLACK) }
	const { offset, length } = CROP
	for (const x of [left, right]) {
		const outward = x === left ? -1 : 1
		for (const y of [top, bottom]) {
			const up = y === top ? 1 : -1
			page.drawLine({ start: { x: x + outward * offset, y }, end: { x: x + outward * (offset + length), y }, ...ink })
			page.drawLine({ start: { x, y: y + up * offset }, end: { x, y: y + up * (offset + length) }, ...ink })
		}
	}
	const fold = CARD_LEFT + PANEL_WIDTH
	const dashed = { thickness: 0.5, color: color(FOLD), dashArray: [3, 2], lineCap: LineCapStyle.Butt }
	page.drawLine({ start: { x: fold, y: bottom }, end: { x: fold, y: top }, ...dashed })
	page.drawLine({ start: { x: fold, y: top + offset }, end: { x: fold, y: top + offset + length }, ...dashed })
	page.drawLine({ start: { x: fold, y: bottom - offset }, end: { x: fold, y: bottom - offset - length }, ...dashed })
}
