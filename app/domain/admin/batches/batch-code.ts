import { csvLine } from '#app/utils/csv.ts'

/** One sticker code as the batch files print it; plain data, so it crosses to the render worker as it is. */
export type BatchCode = { id: number; pin: string; scanUrl: string }
/** A printer's offset correction in whole millimetres: x to the right, y down the sheet. */
export type Nudge = { x: number; y: number }

export const CSV_NAME = 'codes.csv'
export const HEADLINE = 'Scan in an emergency'

export const pinLine = (pin: string) => `PIN ${pin}`
export const pngName = (code: BatchCode) => `hmh-sticker-${code.id}.png`
export const svgName = (code: BatchCode) => `hmh-sticker-${code.id}.svg`

/** `id,pin,scan_url`, one row a code (RFC 4180). */
export function codesCsv(codes: readonly BatchCode[]) {
	const rows = [['id', 'pin', 'scan_url'], ...codes.map((code) => [String(code.id), code.pin, code.scanUrl])]
	return rows.map(csvLine).join('')
}
