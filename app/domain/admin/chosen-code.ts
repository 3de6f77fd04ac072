/**
 * The code the shopper chose at checkout (spec 000: each order is linked to one of the shopper's own codes), as the
 * owner's order pages, the packing slip and orders.csv show it. Never its PIN: the code is already the shopper's.
 */
export type ChosenCode = {
	id: number
	/** Sticker #12, or QR code #12 for one the shopper made (codeLabel). */
	label: string
	/** What it opens; null while it belongs to someone other than the shopper. */
	scanUrl: string | null
	/** Still claimed by the account that placed the order. */
	ownedByShopper: boolean
	active: boolean
	/** Assigned to this order. */
	assigned: boolean
	/** Why assigning it to this order is refused, in the assign dialog's words; null when it can be, or is, assigned. */
	problem: string | null
}

export const CHOSEN_CODE_GONE = 'The code chosen for this order no longer exists.'

/** One line on where the chosen code stands, for the order pages, the packing slip and orders.csv. */
export function chosenCodeStatus(code: ChosenCode | null): string {
	if (!code) return CHOSEN_CODE_GONE
	const lines = [code.assigned ? 'Assigned to this order.' : (code.problem ?? 'Not assigned yet.')]
	if (code.assigned && !code.ownedByShopper) lines.push('It is no longer on the shopper’s account.')
	if (code.ownedByShopper && !code.active) lines.push('The shopper has turned it off: a scan shows nothing until they turn it on.')
	return lines.join(' ')
}

/** The packing slip's line about the chosen code (page and PDF). */
export function chosenCodeLine(doc: { chosenCode: ChosenCode | null; chosenCodeStatus: string }) {
	const code = doc.chosenCode
	if (!code) return doc.chosenCodeStatus
	return `Chosen by the shopper: ${code.label}${code.scanUrl ? ` (${code.scanUrl})` : ''}. ${doc.chosenCodeStatus}`
}

/** What a code's cell on the packing slip says under its number: a PIN only for a code nobody has claimed. */
export function codeCaption(code: { pin: string | null; chosen: boolean; claimed: boolean }) {
	if (code.chosen) return 'Chosen by the shopper'
	if (code.claimed) return 'Already claimed'
	return `PIN ${code.pin ?? '-'}`
}
