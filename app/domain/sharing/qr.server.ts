import { qrRuns, runsPath } from '#app/domain/qr/runs.ts'

/**
 * A SMART Health Link's QR code as SVG: exactly the `shlink:/…` text, black on white, level M (the link is long, and a
 * screen or a printout does not wear like a sticker), one sub-path per run of dark modules.
 */
export function shlinkQrSvg(text: string, pixelsPerModule = 4) {
	const { side, runs } = qrRuns(text, 'M')
	const size = side * pixelsPerModule
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
		`<rect width="${side}" height="${side}" fill="#FFFFFF"/><path d="${runsPath(runs)}" fill="#000000"/></svg>`
	)
}
