export const QR_COLORS = [
	{ name: 'Medical Red', hex: '#DC2626' },
	{ name: 'Medical Blue', hex: '#2563EB' },
	{ name: 'Medical Green', hex: '#16A34A' },
	{ name: 'Medical Purple', hex: '#9333EA' },
	{ name: 'Medical Pink', hex: '#EC4899' },
	{ name: 'Medical Orange', hex: '#EA580C' },
	{ name: 'Classic Black', hex: '#000000' },
	{ name: 'Emergency Orange', hex: '#F97316' },
	{ name: 'Healthcare Blue', hex: '#0EA5E9' },
	{ name: 'Safety Green', hex: '#10B981' },
] as const

export const TEXT_COLORS = [...QR_COLORS, { name: 'Black', hex: '#000000' }, { name: 'White', hex: '#FFFFFF' }] as const

export type QrColor = (typeof QR_COLORS)[number]['hex']
export type TextColor = (typeof TEXT_COLORS)[number]['hex']

export const DEFAULT_QR_COLOR: QrColor = '#DC2626'
export const DEFAULT_TEXT_COLOR: TextColor = '#000000'

export const CUSTOM_TEXT_MAX_CHARACTERS = 25
export const CUSTOM_TEXT_MAX_LETTERS = 16

export type CustomTextStatus = { valid: boolean; letters: number; length: number; message: string }

/** Spec 002 §5: at most 25 typed characters, and at most 16 of them other than spaces and digits. */
export function customTextStatus(text: string): CustomTextStatus {
	// Counting what a person sees as characters costs far more than counting code points: long input is refused first.
	const codePoints = codePointCount(text)
	if (codePoints > CUSTOM_TEXT_MAX_CODE_POINTS)
		return {
			valid: false,
			letters: codePoints,
			length: codePoints,
			message: `Too long: ${codePoints}/${CUSTOM_TEXT_MAX_CHARACTERS} characters`,
		}
	const length = characterCount(text)
	const letters = characterCount(text.replace(/[\s\d]/g, ''))
	if (length > CUSTOM_TEXT_MAX_CHARACTERS)
		return { valid: false, letters, length, message: `Too long: ${length}/${CUSTOM_TEXT_MAX_CHARACTERS} characters` }
	const valid = letters <= CUSTOM_TEXT_MAX_LETTERS
	const message = `${valid ? 'Valid' : 'Too long'}: ${letters}/${CUSTOM_TEXT_MAX_LETTERS} letters`
	return { valid, letters, length, message }
}

/** Room for 25 characters typed with accents or as emoji sequences (several code points each). */
const CUSTOM_TEXT_MAX_CODE_POINTS = CUSTOM_TEXT_MAX_CHARACTERS * 8

function codePointCount(text: string) {
	let count = 0
	for (let i = 0; i < text.length; i++) {
		count++
		const unit = text.charCodeAt(i)
		if (unit >= 0xd800 && unit <= 0xdbff) i++
	}
	return count
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** What a person sees as one character: 'é' typed as e + accent, or an emoji with its variation selector. */
function characterCount(text: string) {
	return Array.from(graphemes.segment(text)).length
}

function channel(value: number) {
	const c = value / 255
	return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** WCAG relative luminance of a #RRGGBB colour. */
export function luminance(hex: string) {
	const n = Number.parseInt(hex.slice(1, 7), 16)
	return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
}

export function contrastRatio(a: string, b: string) {
	const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
	return (light + 0.05) / (dark + 0.05)
}

/** Scales a colour toward black until it reaches `ratio` against `surface`; colours that already do are returned as they are. */
export function withContrast(hex: string, surface: string, ratio: number) {
	const n = Number.parseInt(hex.slice(1, 7), 16)
	const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255]
	let color = hex.toUpperCase()
	for (let scale = 1; contrastRatio(color, surface) < ratio && scale > 0; scale -= 0.02) {
		color = `#${rgb
			.map((c) =>
				Math.round(c * scale)
					.toString(16)
					.padStart(2, '0'),
			)
			.join('')}`.toUpperCase()
	}
	return color
}
