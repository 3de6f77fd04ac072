import QRCode from 'qrcode'

/** Light modules around the symbol on every side: the standard's minimum, so every reader finds it. */
export const QUIET_ZONE = 4

/**
 * The scan URL's symbol as horizontal runs of dark modules, at level H like the stickers (a worn or bent card still
 * reads). `side` counts the quiet zone; runs are placed inside it.
 */
export function qrRuns(data: string) {
	const { modules } = QRCode.create(data, { errorCorrectionLevel: 'H' })
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
