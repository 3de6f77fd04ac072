import { readFileSync } from 'node:fs'
import fontkit from '@pdf-lib/fontkit'
import { bundledFontPath } from '#app/domain/qr/render.server.ts'
import type { Measure } from './layout.ts'

// DejaVu Sans Condensed: every Latin letter of English, Spanish and French (and most others), narrow enough for a wallet card.
export const CARD_FONT_FAMILY = 'DejaVu Sans Condensed'
export const CARD_FONT_FILES = { regular: 'DejaVuSansCondensed.ttf', bold: 'DejaVuSansCondensed-Bold.ttf' } as const

type Face = keyof typeof CARD_FONT_FILES
const bytes = new Map<Face, Uint8Array>()
const fonts = new Map<Face, fontkit.Font>()

/** The face's file, read once per process. */
export function cardFontBytes(face: Face) {
	let data = bytes.get(face)
	if (!data) bytes.set(face, (data = readFileSync(bundledFontPath(CARD_FONT_FILES[face]))))
	return data
}

export function cardFontPaths() {
	return [bundledFontPath(CARD_FONT_FILES.regular), bundledFontPath(CARD_FONT_FILES.bold)]
}

function font(face: Face) {
	let parsed = fonts.get(face)
	if (!parsed) fonts.set(face, (parsed = fontkit.create(cardFontBytes(face) as Buffer)))
	return parsed
}

const advances = new Map<Face, Map<number, number>>()

/**
 * The sum of each character's advance, without ligatures or kerning (which only narrow a line): never less than what
 * pdf-lib or resvg draws, so a line measured to fit does fit in both. Widths are cached per character, never per text.
 */
export const measureCardText: Measure = (text, size, bold = false) => {
	const face: Face = bold ? 'bold' : 'regular'
	const f = font(face)
	let widths = advances.get(face)
	if (!widths) advances.set(face, (widths = new Map()))
	let units = 0
	for (const char of text) {
		const code = char.codePointAt(0)!
		let width = widths.get(code)
		if (width === undefined) widths.set(code, (width = f.glyphForCodePoint(code).advanceWidth))
		units += width
	}
	return (units / f.unitsPerEm) * size
}
