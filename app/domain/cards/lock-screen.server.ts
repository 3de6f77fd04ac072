import { Resvg } from '@resvg/resvg-js'
import sharp from 'sharp'
import { listColumn, type Box, type TextOp } from './column.ts'
import type { CardFacts } from './facts.ts'
import { CARD_FONT_FAMILY, cardFontPaths, measureCardText as measure } from './fonts.server.ts'
import { DNR_BORDER, DNR_FILL, fitText, INK, RED, wrapText } from './layout.ts'
import { qrRuns } from '#app/domain/qr/runs.ts'
import { escapeMarkup } from '#app/utils/escape.ts'

export type LockScreenInput = { facts: CardFacts; scanUrl: string; width: number; height: number }

/** Where the phone draws its clock and widgets, and its controls: left free. */
export const CLOCK_SHARE = 0.28
export const CONTROLS_SHARE = 0.12

/** Sizes are set in points of a 390-point-wide phone and scaled to the image's width. */
const POINTS = { wide: 390, margin: 14, pad: 14, band: 30, qrSide: 120 } as const
const BACKGROUND = '#0F172A'
const CARD = '#FFFFFF'

type Shape = string

/**
 * The lock-screen image: the critical facts in large type on a white card between the clock's area and the phone's
 * controls, with the QR code (black on white, its quiet zone kept) beside the contact to call. Rasterised and encoded on
 * the calling thread (about 100 ms at 1440 × 3200): the app calls it on a render worker (render/pool.server.ts).
 */
export async function renderLockScreenPng(input: LockScreenInput) {
	const rendered = new Resvg(lockScreenSvg(input), {
		fitTo: { mode: 'original' },
		font: { loadSystemFonts: false, fontFiles: cardFontPaths(), defaultFontFamily: CARD_FONT_FAMILY },
	}).render()
	// libvips encodes in a third of resvg's time (asPng), and without the alpha channel nobody needs.
	const raw = { width: rendered.width, height: rendered.height, channels: 4 as const }
	return new Uint8Array(await sharp(rendered.pixels, { raw }).removeAlpha().png().toBuffer())
}

export function lockScreenSvg({ facts, scanUrl, width, height }: LockScreenInput) {
	const t = facts.labels
	const s = width / POINTS.wide
	const tall = height / s
	const cardTop = tall * CLOCK_SHARE + 6
	const cardBottom = tall * (1 - CONTROLS_SHARE) - 6
	const inner = POINTS.wide - 2 * POINTS.margin - 2 * POINTS.pad
	const x = POINTS.margin + POINTS.pad
	const shapes: Shape[] = [
		`<rect width="${width}" height="${height}" fill="${BACKGROUND}"/>`,
		rect({ x: POINTS.margin, top: cardTop, width: POINTS.wide - 2 * POINTS.margin, height: cardBottom - cardTop }, s, {
			fill: CARD,
			radius: 18,
		}),
		rect({ x: POINTS.margin, top: cardTop, width: POINTS.wide - 2 * POINTS.margin, height: POINTS.band }, s, { fill: RED, radius: 18 }),
		rect({ x: POINTS.margin, top: cardTop + POINTS.band / 2, width: POINTS.wide - 2 * POINTS.margin, height: POINTS.band / 2 }, s, {
			fill: RED,
		}),
	]
	const ops: TextOp[] = []
	const title = fitText(t.title.toLocaleUpperCase(facts.lang), inner, measure, { largest: 15, smallest: 10, maxLines: 1, bold: true })
	ops.push(op(title.lines[0]!, x, cardTop + (POINTS.band - title.size * 1.2) / 2, title.size, true, CARD))

	let y = cardTop + POINTS.band + 12
	const name = fitText(facts.name, inner, measure, { largest: 26, smallest: 18, maxLines: 2, bold: true })
	for (const line of name.lines) {
		ops.push(op(line, x, y, name.size, true, INK))
		y += name.size * 1.2
	}
	y += 8

	const status = fitText(facts.status.text, inner - 20, measure, { largest: 22, smallest: 14, maxLines: 1, bold: true })
	const details = facts.status.details.map((d) => wrapText(d, inner - 20, 12, measure, { maxLines: 1 })[0]!)
	const statusHeight = 8 + status.size * 1.2 + details.length * 14.5 + 6
	shapes.push(
		rect({ x, top: y, width: inner, height: statusHeight }, s, {
			fill: facts.status.emphatic ? DNR_FILL : CARD,
			stroke: facts.status.emphatic ? DNR_BORDER : INK,
			strokeWidth: facts.status.emphatic ? 4 : 2,
			radius: 6,
		}),
	)
	ops.push(op(status.lines[0]!, x + 10, y + 8, status.size, true, facts.status.emphatic ? DNR_BORDER : INK))
	details.forEach((d, i) => ops.push(op(d, x + 10, y + 8 + status.size * 1.2 + i * 14.5, 12, false, INK)))
	y += statusHeight + 10

	const qrTop = cardBottom - POINTS.pad - POINTS.qrSide
	const lists: Box = { x, top: y, width: inner, height: qrTop - 10 - y }
	const style = { size: 15, lineHeight: 18.5, gap: 6, indent: 12, ink: INK, moreColor: RED, itemLines: 2 }
	ops.push(
		...listColumn(
			[
				{ heading: t.critical, items: facts.flags, headingColor: RED, bold: true, min: 1, hideWhenEmpty: true },
				{ heading: t.allergies, items: facts.allergies, min: 1 },
				{ heading: t.medications, items: facts.medications, min: 1 },
			],
			lists,
			style,
			measure,
			facts,
		),
	)

	// The QR code at the card's bottom right; beside it, who to call and what the code is for.
	const qrX = POINTS.wide - POINTS.margin - POINTS.pad - POINTS.qrSide
	shapes.push(qr(scanUrl, qrX * s, qrTop * s, POINTS.qrSide * s))
	const beside: Box = { x, top: qrTop, width: qrX - 12 - x, height: POINTS.qrSide - 36 }
	const contact = facts.contacts.slice(0, 1).map((c) => [{ text: c.name }, { text: c.phone, bold: true }])
	ops.push(...listColumn([{ heading: t.call, items: contact, min: 1 }], beside, style, measure, facts))
	const caption = wrapText(t.scanForAll, beside.width, 13, measure, { bold: true, maxLines: 2 })
	caption.forEach((line, i) => ops.push(op(line, x, qrTop + POINTS.qrSide - (caption.length - i) * 16, 13, true, INK)))

	const body = [...shapes, ...ops.map((o) => textElement(o, s))].join('')
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`
}

const op = (text: string, x: number, top: number, size: number, bold: boolean, color: string): TextOp => ({
	kind: 'text',
	text,
	x,
	top,
	size,
	bold,
	color,
})

const px = (value: number) => Number(value.toFixed(2))

function rect(box: Box, s: number, style: { fill: string; stroke?: string; strokeWidth?: number; radius?: number }) {
	const stroke = style.stroke ? ` stroke="${style.stroke}" stroke-width="${px((style.strokeWidth ?? 1) * s)}"` : ''
	const radius = style.radius ? ` rx="${px(style.radius * s)}"` : ''
	// A stroke is drawn half outside the box: inset by half its width, so the box is what was asked.
	const inset = style.stroke ? ((style.strokeWidth ?? 1) * s) / 2 : 0
	return `<rect x="${px(box.x * s + inset)}" y="${px(box.top * s + inset)}" width="${px(box.width * s - 2 * inset)}" height="${px(box.height * s - 2 * inset)}"${radius} fill="${style.fill}"${stroke}/>`
}

function textElement(o: TextOp, s: number) {
	const weight = o.bold ? ' font-weight="700"' : ''
	// The line box is 1.2 em; DejaVu's ascent is about 0.93 em.
	return `<text x="${px(o.x * s)}" y="${px((o.top + o.size * 0.95) * s)}" font-family="${CARD_FONT_FAMILY}"${weight} font-size="${px(o.size * s)}" fill="${o.color}" xml:space="preserve">${escapeMarkup(o.text)}</text>`
}

/** Whole pixels per module, so every module edge is sharp; the symbol is centred in its square. */
function qr(data: string, left: number, top: number, side: number) {
	const { side: modules, runs } = qrRuns(data)
	const unit = Math.floor(side / modules)
	const x0 = Math.round(left + (side - unit * modules) / 2)
	const y0 = Math.round(top + (side - unit * modules) / 2)
	const path = runs.map((r) => `M${x0 + r.col * unit} ${y0 + r.row * unit}h${r.length * unit}v${unit}h${-r.length * unit}z`).join('')
	return `<rect x="${x0}" y="${y0}" width="${unit * modules}" height="${unit * modules}" fill="#FFFFFF"/><path d="${path}" fill="#000000" shape-rendering="crispEdges"/>`
}
