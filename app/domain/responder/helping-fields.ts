// The two fields of "I'm helping this person now": their limits (stated beside them), and what a refused report keeps.

/** The most characters each field takes, its spaces run together. */
export const HELPING_LIMITS = { where: 300, hospital: 200 } as const
export type HelpingField = keyof typeof HELPING_LIMITS

/** The position "Add my location" fills in, in hidden fields. */
const POSITION = ['latitude', 'longitude', 'accuracy']

/** A field's text as it is kept and counted: its spaces run together. */
export const helpingText = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() || undefined : undefined)

/** A refused report, shown again: what was typed, each field too long (with its length), and whether the position was dropped. */
export type KeptReport = {
	values: Partial<Record<HelpingField, string>>
	tooLong: Partial<Record<HelpingField, number>>
	locationDropped: boolean
}

/** What the form shows again after a refusal: the typed text as sent, and which fields the refusal was about. */
export function keptReport(payload: Record<string, unknown>, refusedFields: string[]): KeptReport {
	const kept: KeptReport = { values: {}, tooLong: {}, locationDropped: false }
	for (const field of Object.keys(HELPING_LIMITS) as HelpingField[]) {
		const typed = payload[field]
		if (typeof typed === 'string') kept.values[field] = typed
		if (refusedFields.includes(field)) kept.tooLong[field] = helpingText(typed)?.length ?? 0
	}
	kept.locationDropped = refusedFields.some((field) => POSITION.includes(field))
	return kept
}
