/**
 * Sheets the owner prints sticker batches on, as data (client-safe): the batch form lists them, the PDF builder and the
 * calibration page place labels by them. Every length is in millimetres, measured from the sheet's top-left corner.
 * The label-sheet figures are the makers' templates (as published in gLabels' template collection).
 */
export type LabelShape = 'round' | 'rect'

export type LabelLayout = {
	id: string
	name: string
	pageWidthMm: number
	pageHeightMm: number
	columns: number
	rows: number
	/** Top-left corner of the first label (for a round label, of the square around it). */
	offsetXMm: number
	offsetYMm: number
	/** From one label's left (top) edge to the next one's. */
	pitchXMm: number
	pitchYMm: number
	labelWidthMm: number
	labelHeightMm: number
	shape: LabelShape
	/** Plain paper: each label gets a light outline to cut along. Die-cut label sheets need none. */
	cutLines: boolean
}

const inch = (value: number) => Math.round(value * 25.4 * 1000) / 1000

const LETTER = { pageWidthMm: inch(8.5), pageHeightMm: inch(11) }
const A4 = { pageWidthMm: 210, pageHeightMm: 297 }

const LAYOUTS = [
	{
		id: 'letter-grid',
		name: 'Plain paper, US Letter: 20 squares of 2 in',
		...LETTER,
		columns: 4,
		rows: 5,
		offsetXMm: inch(0.25),
		offsetYMm: inch(0.5),
		pitchXMm: inch(2),
		pitchYMm: inch(2),
		labelWidthMm: inch(2),
		labelHeightMm: inch(2),
		shape: 'rect',
		cutLines: true,
	},
	{
		id: 'a4-grid',
		name: 'Plain paper, A4: 20 squares of 50 mm',
		...A4,
		columns: 4,
		rows: 5,
		offsetXMm: 5,
		offsetYMm: 23.5,
		pitchXMm: 50,
		pitchYMm: 50,
		labelWidthMm: 50,
		labelHeightMm: 50,
		shape: 'rect',
		cutLines: true,
	},
	{
		id: 'ol5375',
		name: '2 in round labels, 20 per Letter sheet (OnlineLabels OL5375)',
		...LETTER,
		columns: 4,
		rows: 5,
		offsetXMm: inch(0.15625),
		offsetYMm: inch(0.375),
		pitchXMm: inch(2.0625),
		pitchYMm: inch(2.0625),
		labelWidthMm: inch(2),
		labelHeightMm: inch(2),
		shape: 'round',
		cutLines: false,
	},
	{
		id: 'ol2682',
		name: '2 in round labels, 12 per Letter sheet (OnlineLabels OL2682)',
		...LETTER,
		columns: 3,
		rows: 4,
		offsetXMm: inch(0.625),
		offsetYMm: inch(0.6),
		pitchXMm: inch(2.625),
		pitchYMm: inch(2.6),
		labelWidthMm: inch(2),
		labelHeightMm: inch(2),
		shape: 'round',
		cutLines: false,
	},
	{
		id: 'ol2679',
		name: '2 in × 2 in square labels, 12 per Letter sheet (OnlineLabels OL2679)',
		...LETTER,
		columns: 3,
		rows: 4,
		offsetXMm: inch(0.625),
		offsetYMm: inch(0.645),
		pitchXMm: inch(2.625),
		pitchYMm: inch(2.57),
		labelWidthMm: inch(2),
		labelHeightMm: inch(2),
		shape: 'rect',
		cutLines: false,
	},
	{
		id: 'ol330',
		name: '2 in × 2 in square labels, 20 per Letter sheet (OnlineLabels OL330)',
		...LETTER,
		columns: 4,
		rows: 5,
		offsetXMm: inch(0.25),
		offsetYMm: inch(0.25),
		pitchXMm: inch(2),
		pitchYMm: inch(2.125),
		labelWidthMm: inch(2),
		labelHeightMm: inch(2),
		shape: 'rect',
		cutLines: false,
	},
] as const satisfies readonly LabelLayout[]

export type LabelLayoutId = (typeof LAYOUTS)[number]['id']

export const LABEL_LAYOUTS: readonly LabelLayout[] = LAYOUTS

export const DEFAULT_LAYOUT_ID: LabelLayoutId = 'letter-grid'

/** A printer's offset is corrected by whole millimetres, at most this far either way. */
export const MAX_NUDGE_MM = 10

export function layoutById(id: string): LabelLayout | undefined {
	return LABEL_LAYOUTS.find((layout) => layout.id === id)
}

export function labelsPerPage(layout: LabelLayout) {
	return layout.columns * layout.rows
}
