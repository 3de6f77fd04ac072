/**
 * Facts that change a responder's first decisions, derived from what the owner entered.
 * Matching is on words, case-insensitive, brand and generic names alike; it errs towards flagging.
 */
export type CriticalFlag = { kind: 'anticoagulant' | 'insulin' | 'severe-allergy' | 'seizures' | 'implant'; detail: string }

const ANTICOAGULANTS = [
	'warfarin', 'coumadin', 'jantoven', 'apixaban', 'eliquis', 'rivaroxaban', 'xarelto', 'dabigatran', 'pradaxa',
	'edoxaban', 'savaysa', 'heparin', 'enoxaparin', 'lovenox', 'dalteparin', 'fragmin', 'fondaparinux',
	'clopidogrel', 'plavix', 'prasugrel', 'effient', 'ticagrelor', 'brilinta',
]
const INSULIN = ['insulin', 'lantus', 'levemir', 'humalog', 'novolog', 'tresiba', 'toujeo', 'basaglar', 'apidra', 'fiasp', 'humulin', 'novolin']
const SEIZURES = ['seizure', 'seizures', 'epilepsy', 'epileptic', 'convulsion', 'convulsions']
const IMPLANTS = ['pacemaker', 'defibrillator', 'icd', 'lvad', 'stent', 'cochlear implant', 'insulin pump', 'neurostimulator', 'shunt', 'artificial valve', 'mechanical valve', 'implanted']

function mentions(text: string | null | undefined, words: string[]) {
	if (!text) return null
	const lower = text.toLowerCase()
	return words.find((w) => new RegExp(`(^|[^a-z])${w.replace(/ /g, '\\s+')}([^a-z]|$)`).test(lower)) ?? null
}

type Input = {
	medications: Array<{ name: string; dosage?: string | null }>
	allergies: Array<{ allergen: string; severity: string; reaction?: string | null }>
	conditions: Array<{ condition: string; status: string; notes?: string | null }>
	distinguishingMarks?: string | null
	additionalNotes?: string | null
}

export function criticalFlags(input: Input): CriticalFlag[] {
	const flags: CriticalFlag[] = []
	for (const m of input.medications) {
		if (mentions(m.name, ANTICOAGULANTS)) flags.push({ kind: 'anticoagulant', detail: m.name })
		else if (mentions(m.name, INSULIN)) flags.push({ kind: 'insulin', detail: m.name })
	}
	for (const a of input.allergies) if (a.severity === 'Severe') flags.push({ kind: 'severe-allergy', detail: a.allergen })
	const current = input.conditions.filter((c) => c.status !== 'Resolved')
	for (const c of current) if (mentions(c.condition, SEIZURES)) flags.push({ kind: 'seizures', detail: c.condition })
	for (const c of current) {
		const implant = mentions(c.condition, IMPLANTS) ?? mentions(c.notes, IMPLANTS)
		if (implant) flags.push({ kind: 'implant', detail: c.condition })
	}
	const implantInNotes = mentions(input.additionalNotes, IMPLANTS) ?? mentions(input.distinguishingMarks, IMPLANTS)
	if (implantInNotes && !flags.some((f) => f.kind === 'implant')) flags.push({ kind: 'implant', detail: implantInNotes })
	return flags
}
