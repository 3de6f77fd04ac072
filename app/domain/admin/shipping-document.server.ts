import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { wrapText } from '#app/domain/cards/layout.ts'
import { qrRuns, runsPath } from '#app/domain/qr/runs.ts'
import { env } from '#app/utils/env.server.ts'
import { chosenCodeLine, codeCaption, type ChosenCode } from './chosen-code.ts'

/** What the printable packing slip (/admin/order/{orderId}) shows. */
export type ShippingDocument = {
	orderId: string
	orderNumber: string
	/** ISO time the order was placed, and the same day in words. */
	placedAt: string
	placedOn: string
	fulfillmentStatus: string
	customerName: string | null
	customerEmail: string
	/** The address lines, or one line with the fallback text when the stored address has none. */
	shipTo: string[]
	addressFallback: string | null
	shippingMethod: string | null
	items: Array<{ name: string; quantity: number; options: string[]; customText: string | null }>
	/** The code the shopper chose, and one line on where it stands (chosenCodeStatus). */
	chosenCode: ChosenCode | null
	chosenCodeStatus: string
	/** The assigned codes, the chosen one first. `pin` only for a code nobody has claimed. */
	codes: Array<{ id: number; pin: string | null; chosen: boolean; claimed: boolean; scanUrl: string; svg: string }>
}

const LETTER: [number, number] = [612, 792]
const MARGIN = 48
const COLUMNS = 4
const CELL_WIDTH = (LETTER[0] - 2 * MARGIN) / COLUMNS
const QR_SIZE = 108
const CELL_HEIGHT = QR_SIZE + 58
const INK = rgb(0.1, 0.1, 0.1)
const MUTED = rgb(0.35, 0.35, 0.35)

/** Helvetica writes only WinAnsi: typographic quotes become plain ones, anything else unknown becomes '?'. */
function printable(text: string) {
	return text
		.replace(/[“”„]/g, '"')
		.replace(/[‘’]/g, "'")
		.replace(/[–—]/g, '-')
		.replace(/[^\x20-\x7e\xa0-\xff]/g, '?')
}

/** Splits text into lines no wider than `width`, at spaces where it can and anywhere (a long URL) where it must. */
const wrap = (text: string, font: PDFFont, size: number, width: number) =>
	wrapText(printable(text), width, size, (s, at) => font.widthOfTextAtSize(s, at))

/** The packing slip as a Letter-size PDF: order, address, items, then every assigned code with its PIN, link and QR. */
export async function renderShippingDocumentPdf(doc: ShippingDocument): Promise<Uint8Array> {
	const pdf = await PDFDocument.create()
	pdf.setTitle(`Packing slip ${doc.orderNumber}`)
	pdf.setAuthor(env.FOUNDATION_LEGAL_NAME)
	pdf.setCreationDate(new Date())
	const font = await pdf.embedFont(StandardFonts.Helvetica)
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
	let page: PDFPage = pdf.addPage(LETTER)
	let y = LETTER[1] - MARGIN

	const newPage = () => {
		page = pdf.addPage(LETTER)
		y = LETTER[1] - MARGIN
		write(`Packing slip ${doc.orderNumber} (continued)`, { size: 11, face: bold })
		y -= 24
	}
	/** Makes room for `height` points below y, on a new page if this one is full. */
	const room = (height: number) => {
		if (y - height < MARGIN + 16) newPage()
	}
	function write(text: string, { size = 10, x = MARGIN, face = font, color = INK } = {}) {
		page.drawText(printable(text), { x, y: y - size, size, font: face, color })
	}
	const paragraph = (text: string, options: { size?: number; x?: number; width?: number; face?: PDFFont; color?: typeof INK } = {}) => {
		const { size = 10, x = MARGIN, face = font, color = INK } = options
		const width = options.width ?? LETTER[0] - MARGIN - x
		for (const line of wrap(text, face, size, width)) {
			room(size + 4)
			write(line, { size, x, face, color })
			y -= size + 4
		}
	}

	write('Packing slip', { size: 20, face: bold })
	const org = printable(env.FOUNDATION_LEGAL_NAME)
	page.drawText(org, { x: LETTER[0] - MARGIN - bold.widthOfTextAtSize(org, 10), y: y - 10, size: 10, font: bold, color: MUTED })
	y -= 32
	write(`Order ${doc.orderNumber}`, { size: 14, face: bold })
	y -= 20
	write(`Placed ${doc.placedOn}${doc.shippingMethod ? ` - shipping: ${doc.shippingMethod}` : ''}`, { color: MUTED })
	y -= 26

	const top = y
	write('Ship to', { size: 11, face: bold })
	y -= 16
	for (const line of doc.shipTo) paragraph(line, { width: 250 })
	const leftBottom = y
	y = top
	const right = MARGIN + 290
	write('Customer', { size: 11, face: bold, x: right })
	y -= 16
	for (const line of [doc.customerName, doc.customerEmail].filter((l): l is string => Boolean(l)))
		paragraph(line, { x: right, width: LETTER[0] - MARGIN - right })
	y = Math.min(y, leftBottom) - 18

	room(40)
	write('Qty', { size: 11, face: bold })
	write('Item', { size: 11, face: bold, x: MARGIN + 40 })
	y -= 18
	for (const item of doc.items) {
		room(28)
		write(String(item.quantity))
		paragraph(item.name, { x: MARGIN + 40, face: bold })
		const options = item.options.filter((o) => !o.startsWith('text '))
		if (options.length) paragraph(options.join(', '), { x: MARGIN + 40, size: 9, color: MUTED })
		if (item.customText) paragraph(`Custom text: "${item.customText}"`, { x: MARGIN + 40, size: 9 })
		y -= 6
	}
	y -= 12

	room(CELL_HEIGHT + 40)
	write(`QR codes in this order (${doc.codes.length})`, { size: 11, face: bold })
	y -= 18
	paragraph(chosenCodeLine(doc), { size: 9 })
	y -= 6
	for (let i = 0; i < doc.codes.length; i += COLUMNS) {
		room(CELL_HEIGHT)
		doc.codes.slice(i, i + COLUMNS).forEach((code, column) => drawCode(page, code, MARGIN + column * CELL_WIDTH, y, { font, bold }))
		y -= CELL_HEIGHT
	}
	if (!doc.codes.length) paragraph('No QR codes are assigned to this order yet.', { color: MUTED })

	const pages = pdf.getPages()
	pages.forEach((p, index) => {
		const text = `${doc.orderNumber} - page ${index + 1} of ${pages.length}`
		p.drawText(text, { x: LETTER[0] - MARGIN - font.widthOfTextAtSize(text, 8), y: MARGIN - 20, size: 8, font, color: MUTED })
	})
	return pdf.save()
}

function drawCode(page: PDFPage, code: ShippingDocument['codes'][number], x: number, top: number, fonts: { font: PDFFont; bold: PDFFont }) {
	const { side, runs } = qrRuns(code.scanUrl)
	page.drawSvgPath(runsPath(runs), { x, y: top, scale: QR_SIZE / side, color: rgb(0, 0, 0), borderWidth: 0 })
	let y = top - QR_SIZE - 2
	const text = (value: string, size: number, face: PDFFont, color = INK) => {
		page.drawText(value, { x: x + 6, y: y - size, size, font: face, color })
		y -= size + 3
	}
	text(`Code #${code.id}`, 9, fonts.bold)
	text(codeCaption(code), 9, fonts.font)
	for (const line of wrap(code.scanUrl, fonts.font, 6, CELL_WIDTH - 12).slice(0, 3)) text(line, 6, fonts.font, MUTED)
}
