import JSZip from 'jszip'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { CSV_NAME, codesCsv, pngName, svgName, type BatchCode } from './batch-code.ts'
import { qrPng } from './qr-png.server.ts'

/** 2 in at 300 dpi: crisp on a 2-inch sticker. */
const PNG_WIDTH = 600

/** One PNG a code and the CSV. PNGs are compressed already: stored as they are. */
export async function buildPngZip(codes: readonly BatchCode[]) {
	const zip = new JSZip()
	for (const code of codes) zip.file(pngName(code), qrPng(code.scanUrl, PNG_WIDTH), { compression: 'STORE' })
	zip.file(CSV_NAME, codesCsv(codes), { compression: 'DEFLATE' })
	return zip.generateAsync({ type: 'uint8array', compression: 'STORE' })
}

/** One SVG a code and the CSV; SVG text shrinks a lot, so these are compressed. */
export async function buildSvgZip(codes: readonly BatchCode[]) {
	const zip = new JSZip()
	for (const code of codes) zip.file(svgName(code), renderQrSvg({ data: code.scanUrl, circular: false }))
	zip.file(CSV_NAME, codesCsv(codes))
	return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 } })
}
