import { describe, expect, test } from 'vitest'
import QRCode from 'qrcode'
import { labelOrigin, labelPlan, moduleRects } from './sheet-pdf.server.ts'
import { DEFAULT_LAYOUT_ID, LABEL_LAYOUTS, labelsPerPage, layoutById } from './layouts.ts'

const SCAN_URL = 'https://hitmehelpers.example/scan/AbCdEfGhIjKlMnOpQrStUvWx'
const NO_NUDGE = { x: 0, y: 0 }

describe('label layouts', () => {
	test('the plain grids and the 2-inch round and square sheets are there, each id once, the default among them', () => {
		const ids = LABEL_LAYOUTS.map((layout) => layout.id)
		expect(new Set(ids).size).toBe(ids.length)
		expect(ids).toEqual(expect.arrayContaining(['letter-grid', 'a4-grid', 'ol5375', 'ol2682', 'ol2679', 'ol330']))
		expect(layoutById(DEFAULT_LAYOUT_ID)).toBeDefined()
		expect(layoutById('nope')).toBeUndefined()
		expect(LABEL_LAYOUTS.filter((l) => l.shape === 'round').every((l) => Math.abs(l.labelWidthMm - 50.8) < 0.01)).toBe(true)
		expect(layoutById('a4-grid')).toMatchObject({ pageWidthMm: 210, pageHeightMm: 297 })
		expect(layoutById('letter-grid')).toMatchObject({ pageWidthMm: 215.9, pageHeightMm: 279.4 })
	})

	test.each(LABEL_LAYOUTS.map((layout) => [layout.id, layout] as const))(
		'%s: every label lies on the page, none overlapping',
		(_id, layout) => {
			expect(layout.pitchXMm).toBeGreaterThanOrEqual(layout.labelWidthMm)
			expect(layout.pitchYMm).toBeGreaterThanOrEqual(layout.labelHeightMm)
			const last = labelOrigin(layout, labelsPerPage(layout) - 1, NO_NUDGE)
			expect(labelOrigin(layout, 0, NO_NUDGE)).toEqual({ x: layout.offsetXMm, y: layout.offsetYMm })
			expect(last.x + layout.labelWidthMm).toBeLessThanOrEqual(layout.pageWidthMm)
			expect(last.y + layout.labelHeightMm).toBeLessThanOrEqual(layout.pageHeightMm)
			// The next page starts over at the first slot.
			expect(labelOrigin(layout, labelsPerPage(layout), { x: 2, y: -3 })).toEqual({ x: layout.offsetXMm + 2, y: layout.offsetYMm - 3 })
		},
	)

	test.each(LABEL_LAYOUTS.map((layout) => [layout.id, layout] as const))(
		'%s: the code is at least 25 mm and stays inside the label with its text',
		(_id, layout) => {
			const plan = labelPlan(layout)
			const modules = QRCode.create(SCAN_URL, { errorCorrectionLevel: 'H' }).modules.size
			const symbol = (plan.qr.side * modules) / (modules + 4)
			expect(symbol).toBeGreaterThanOrEqual(25)
			expect(plan.headline.baseline).toBeLessThan(plan.qr.y)
			expect(plan.pin.baseline).toBeGreaterThan(plan.qr.y + plan.qr.side)
			expect(plan.pin.baseline).toBeLessThan(layout.labelHeightMm)
			if (layout.shape === 'round') {
				const r = layout.labelWidthMm / 2
				const corner = Math.hypot(plan.qr.side / 2, Math.max(r - plan.qr.y, plan.qr.y + plan.qr.side - r))
				expect(corner).toBeLessThan(r)
			} else {
				expect(plan.qr.x).toBeGreaterThan(0)
				expect(plan.qr.x + plan.qr.side).toBeLessThan(layout.labelWidthMm)
			}
		},
	)
})

test('moduleRects covers exactly the dark modules', () => {
	const matrix = QRCode.create(SCAN_URL, { errorCorrectionLevel: 'H' }).modules
	const drawn = new Uint8Array(matrix.size * matrix.size)
	let rects = 0
	const flat = moduleRects(matrix)
	for (let i = 0; i < flat.length; i += 4) {
		const [col, row, width, height] = flat.slice(i, i + 4) as [number, number, number, number]
		rects++
		for (let r = row; r < row + height; r++)
			for (let c = col; c < col + width; c++) {
				expect(drawn[r * matrix.size + c]).toBe(0)
				drawn[r * matrix.size + c] = 1
			}
	}
	for (let r = 0; r < matrix.size; r++)
		for (let c = 0; c < matrix.size; c++) expect(drawn[r * matrix.size + c]).toBe(matrix.get(r, c) ? 1 : 0)
	expect(rects).toBeGreaterThan(0)
})
