import QRCode from 'qrcode'

/** Light modules around the symbol on every side: the standard's minimum, so every reader finds it. */
const QUIET_ZONE = 4

/**
 * A SMART Health Link's QR code as SVG: exactly the `shlink:/…` text, black on white, level M (the link is long, and a
 * screen or a printout does not wear like a sticker), one sub-path per run of dark modules.
 */
export function shlinkQrSvg(text: string, pixelsPerModule = 4) {
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
	const side = modules.size + 2 * QUIET_ZONE
	const parts: string[] = []
	for (let row = 0; row < modules.size; row++) {
		let col = 0
		while (col < modules.size) {
			if (!modules.get(row, col)) {
				col++
				continue
			}
			const start = col
			while (col < modules.size && modules.get(row, col)) col++
			parts.push(`M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h${start - col}z`)
		}
	}
	const size = side * pixelsPerModule
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
		`<rect width="${side}" height="${side}" fill="#FFFFFF"/><path d="${parts.join('')}" fill="#000000"/></svg>`
	)
}
