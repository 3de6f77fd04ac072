/**
 * How a sealed column (db/schema/columns.ts) seals and opens its text. The schema holds no keys: the app hands over its
 * data crypto once, as it starts (`sealColumns()` in app/utils/sealed-data.server.ts), and the columns use it from then
 * on. Importing the schema reads no environment.
 */
export type ColumnSealing = {
	sealText(plain: string, place: string): string
	openText(stored: string, place: string): string
}

let registered: ColumnSealing | undefined

/** Sets the crypto every sealed column uses from now on (the same one each time: registering again replaces it). */
export function registerColumnSealing(sealing: ColumnSealing) {
	registered = sealing
}

export class ColumnSealingMissing extends Error {}

/** The registered crypto; a sealed column read or written before the app registered its keys is a programming error. */
export function columnSealing(): ColumnSealing {
	if (!registered)
		throw new ColumnSealingMissing(
			'A sealed column was used before the data keys were registered: call sealColumns() (app/utils/sealed-data.server.ts) at start',
		)
	return registered
}
