import QRCode from 'qrcode'

/** Light modules around the symbol on every side: the standard's minimum, so every reader finds it. */
export const QUIET_ZONE = 4

/**
 * A symbol as horizontal runs of dark modules, placed inside the quiet zone; `side` counts the quiet zone. Level H by
 * default, as on the stickers (a worn or bent card still reads); a long text that is only shown on a screen or a
 * printout may take M.
 */
export function qrRuns(data: string, errorCorrectionLevel: 'M' | 'H' = 'H') {
	const { modules } = QRCode.create(data, { errorCorrectionLevel })
	const runs: Array<{ row: number; col: number; length: number }> = []
	for (let row = 0; row < modules.size; row++) {
		let col = 0
		while (col < modules.size) {
			if (!modules.get(row, col)) {
				col++
				continue
			}
			const start = col
			while (col < modules.size && modules.get(row, col)) col++
			runs.push({ row: row + QUIET_ZONE, col: start + QUIET_ZONE, length: col - start })
		}
	}
	return { side: modules.size + 2 * QUIET_ZONE, runs }
}

/** The runs as one SVG path in module units (one sub-path per run): for SVG and for pdf-lib's drawSvgPath. */
export const runsPath = (runs: ReturnType<typeof qrRuns>['runs']) =>
	runs.map((r) => `M${r.col} ${r.row}h${r.length}v1h${-r.length}z`).join('')
