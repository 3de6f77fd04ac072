import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Resvg, renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js'
import QRCode from 'qrcode'
import { contrastRatio, DEFAULT_QR_COLOR, DEFAULT_TEXT_COLOR, withContrast } from './palette.ts'
import { escapeMarkup } from '#app/utils/escape.ts'

export type QrRenderOptions = {
	data: string
	color?: string
	textColor?: string
	circular?: boolean
	customText?: string
	transparentBackground?: boolean
	width?: number
	margin?: number
}

type Layout = { width: number; height: number; body: string[] }
type Style = { color: string; textColor: string; transparent: boolean }
type Matrix = { size: number; get(row: number, col: number): number }

const WHITE = '#FFFFFF'
const BLACK = '#000000'
const FONT_FAMILY = `'DejaVu Sans', Verdana, Arial, sans-serif`
const FONT_FILE = 'DejaVuSans-Bold.ttf'
/** Cap height of DejaVu Sans Bold, in em: centres a line of text on a band. */
const CAP_HEIGHT = 0.73
const MIN_TEXT_CONTRAST = 3
/**
 * zbar reads even yellow on white from a clean render, phone cameras on a worn sticker do not. Every palette
 * colour is kept as named (the palest, Safety Green, is 2.54:1); paler colours given by callers are darkened.
 */
const MIN_MODULE_CONTRAST = 2.5
const UNIT = 10

export function renderQrSvg(options: QrRenderOptions) {
	const { data, width = 400, margin = 3, circular = true, transparentBackground = false } = options
	const style: Style = {
		color: withContrast(hexColor(options.color ?? DEFAULT_QR_COLOR), WHITE, MIN_MODULE_CONTRAST),
		textColor: hexColor(options.textColor ?? DEFAULT_TEXT_COLOR),
		transparent: transparentBackground,
	}
	checkInteger('width', width, 64, 4096)
	checkInteger('margin', margin, 0, 16)
	// Level H: a sticker that lost up to 30% of its modules to wear still reads.
	const matrix = QRCode.create(data, { errorCorrectionLevel: 'H' }).modules
	const text = options.customText?.replace(/\p{Cc}/gu, ' ').trim() || undefined
	const layout = circular ? circularLayout(matrix, margin, style, text) : squareLayout(matrix, margin, style, text)
	return svgDocument(layout, width)
}

export function renderQrPng(options: QrRenderOptions) {
	return new Resvg(renderQrSvg(options), resvgOptions()).render().asPng()
}

/** Rasterises on libuv's thread pool: for batch exports, so the event loop keeps serving scans. */
export async function renderQrPngAsync(options: QrRenderOptions) {
	return (await renderAsync(renderQrSvg(options), resvgOptions())).asPng()
}

export function qrFileName({ shape, id, date }: { shape: 'circular' | 'square'; id: number | string; date: Date }) {
	const safeId = String(id).replace(/[^A-Za-z0-9_-]/g, '')
	return `hmh-qr-${shape}-${safeId}-${date.toISOString().slice(0, 10)}.png`
}

function squareLayout(matrix: Matrix, margin: number, style: Style, text?: string): Layout {
	const side = matrix.size + 2 * margin
	const modules = modulesPath(matrix, margin, margin, style.color)
	if (!text) return { width: side, height: side, body: [background(side, side, style), modules] }
	const label = squareLabel(text, side, style)
	const height = side + label.height + 1
	return { width: side, height, body: [background(side, height, style), modules, ...label.body] }
}

/** Below the quiet zone; a text colour that would vanish on white gets a plate in the QR colour. */
function squareLabel(text: string, side: number, style: Style) {
	const fontSize = fitFontSize(text, side - 2, 3)
	const height = fontSize * 1.7
	const baseline = side + height / 2 + (fontSize * CAP_HEIGHT) / 2
	const position = `x="${u(side / 2)}" y="${u(baseline)}"`
	if (contrastRatio(style.textColor, WHITE) >= MIN_TEXT_CONTRAST)
		return { height, body: [textElement(escapeMarkup(text), fontSize, style.textColor, position)] }
	const plate = `<rect x="${u(1)}" y="${u(side)}" width="${u(side - 2)}" height="${u(height)}" rx="${u(fontSize / 3)}" fill="${style.color}"/>`
	const fill = readableOn(style.textColor, style.color)
	return { height, body: [plate, textElement(escapeMarkup(text), fontSize, fill, position)] }
}

/**
 * The square symbol with its full quiet zone is inscribed in a white disc, so every module keeps at least
 * `margin` light modules around it; a ring in the QR colour frames the disc and carries the custom text.
 */
function circularLayout(matrix: Matrix, margin: number, style: Style, text?: string): Layout {
	const half = matrix.size / 2 + margin
	const inner = half * Math.SQRT2
	const ring = Math.max(6, matrix.size * 0.16)
	const outer = inner + ring
	const centre = outer
	const side = 2 * outer
	const disc = style.transparent ? '' : `<circle cx="${u(centre)}" cy="${u(centre)}" r="${u(inner)}" fill="${WHITE}"/>`
	const body = [
		background(side, side, style),
		`<circle cx="${u(centre)}" cy="${u(centre)}" r="${u(inner + ring / 2)}" fill="none" stroke="${style.color}" stroke-width="${u(ring)}"/>`,
		disc,
		modulesPath(matrix, centre - half + margin, centre - half + margin, style.color),
	]
	if (text) body.push(...ringText(text, centre, inner + ring / 2, ring, style))
	return { width: side, height: side, body }
}

/** Text along the bottom of the ring, upright, reading left to right. */
function ringText(text: string, centre: number, middle: number, ring: number, style: Style) {
	const arc = Math.PI * middle * 0.8
	const fontSize = fitFontSize(text, arc, ring * 0.6)
	const radius = middle + (fontSize * CAP_HEIGHT) / 2
	const d = `M${u(centre - radius)} ${u(centre)}A${u(radius)} ${u(radius)} 0 0 0 ${u(centre + radius)} ${u(centre)}`
	const id = `hmh-qr-arc-${hash(d)}`
	const fill = readableOn(style.textColor, style.color)
	const content = `<textPath href="#${id}" startOffset="50%">${escapeMarkup(text)}</textPath>`
	return [`<path id="${id}" d="${d}" fill="none"/>`, textElement(content, fontSize, fill)]
}

/** `markup` is already escaped. */
function textElement(markup: string, fontSize: number, fill: string, position = '') {
	const font = `font-family="${FONT_FAMILY}" font-weight="700" font-size="${u(fontSize)}"`
	return `<text ${position ? `${position} ` : ''}${font} text-anchor="middle" fill="${fill}">${markup}</text>`
}

function background(width: number, height: number, style: Style) {
	return style.transparent ? '' : `<rect width="${u(width)}" height="${u(height)}" fill="${WHITE}"/>`
}

/** One horizontal run of dark modules per sub-path keeps the SVG small. */
function modulesPath(matrix: Matrix, x0: number, y0: number, color: string) {
	const parts: string[] = []
	for (let row = 0; row < matrix.size; row++) {
		let col = 0
		while (col < matrix.size) {
			if (!matrix.get(row, col)) {
				col++
				continue
			}
			const start = col
			while (col < matrix.size && matrix.get(row, col)) col++
			parts.push(`M${u(x0 + start)} ${u(y0 + row)}h${u(col - start)}v${UNIT}h${u(start - col)}z`)
		}
	}
	// crispEdges: no anti-aliased seams between adjacent runs.
	return `<path d="${parts.join('')}" fill="${color}" shape-rendering="crispEdges"/>`
}

function svgDocument(layout: Layout, width: number) {
	const height = Math.round((width * layout.height) / layout.width)
	const viewBox = `0 0 ${u(layout.width)} ${u(layout.height)}`
	const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}">`
	return `${open}${layout.body.filter(Boolean).join('')}</svg>`
}

/** Measured with the bundled font; 5% spare for browsers that show the SVG in Verdana or Arial. */
function fitFontSize(text: string, available: number, largest: number) {
	const probe = `<text x="0" y="100" font-family="DejaVu Sans" font-weight="700" font-size="100">${escapeMarkup(text)}</text>`
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="150">${probe}</svg>`
	const em = (new Resvg(svg, resvgOptions()).getBBox()?.width ?? 0) / 100
	return Math.min(largest, (available * 0.95) / Math.max(em, 1))
}

function readableOn(text: string, surface: string) {
	if (contrastRatio(text, surface) >= MIN_TEXT_CONTRAST) return text
	return contrastRatio(BLACK, surface) >= contrastRatio(WHITE, surface) ? BLACK : WHITE
}

function checkInteger(name: string, value: number, min: number, max: number) {
	if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}`)
}

function hexColor(value: string) {
	if (!/^#[0-9a-f]{6}$/i.test(value)) throw new TypeError(`Not a #RRGGBB colour: ${value}`)
	return value.toUpperCase()
}

/** Module units to SVG user units: resvg places glyphs on a text path unevenly at tiny font sizes. */
function u(modules: number) {
	return Number((modules * UNIT).toFixed(2))
}

function hash(text: string) {
	let h = 5381
	for (let i = 0; i < text.length; i++) h = (h * 33) ^ text.charCodeAt(i)
	return (h >>> 0).toString(36)
}

function resvgOptions(): ResvgRenderOptions {
	return {
		fitTo: { mode: 'original' },
		font: { loadSystemFonts: false, fontFiles: [fontPath()], defaultFontFamily: 'DejaVu Sans' },
	}
}

const fontFiles = new Map<string, string>()

function fontPath() {
	return bundledFontPath(FONT_FILE)
}

/** A font shipped in app/assets/fonts, so text renders the same on every machine; found beside the source or the server build. */
export function bundledFontPath(file: string) {
	const known = fontFiles.get(file)
	if (known) return known
	const candidates = [
		fileURLToPath(new URL(`../../assets/fonts/${file}`, import.meta.url)),
		fileURLToPath(new URL(`../../app/assets/fonts/${file}`, import.meta.url)),
		resolve('app/assets/fonts', file),
	]
	const found = candidates.find((path) => existsSync(path))
	if (!found) throw new Error(`Font ${file} not found in ${candidates.join(', ')}`)
	fontFiles.set(file, found)
	return found
}
