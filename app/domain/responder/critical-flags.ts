/**
 * Facts that change a responder's first decisions, derived from what the owner entered.
 * Matching is on words, case-insensitive, brand and generic names alike; it errs towards flagging.
 */
export type CriticalFlag = { kind: 'anticoagulant' | 'insulin' | 'severe-allergy' | 'seizures' | 'implant'; detail: string }

const ANTICOAGULANTS = wordPattern([
	'warfarin',
	'coumadin',
	'jantoven',
	'apixaban',
	'eliquis',
	'rivaroxaban',
	'xarelto',
	'dabigatran',
	'pradaxa',
	'edoxaban',
	'savaysa',
	'heparin',
	'enoxaparin',
	'lovenox',
	'dalteparin',
	'fragmin',
	'fondaparinux',
	'clopidogrel',
	'plavix',
	'prasugrel',
	'effient',
	'ticagrelor',
	'brilinta',
])
const INSULIN = wordPattern([
	'insulin',
	'lantus',
	'levemir',
	'humalog',
	'novolog',
	'tresiba',
	'toujeo',
	'basaglar',
	'apidra',
	'fiasp',
	'humulin',
	'novolin',
])
const SEIZURES = wordPattern(['seizure', 'seizures', 'epilepsy', 'epileptic', 'convulsion', 'convulsions'])
const IMPLANTS = wordPattern([
	'pacemaker',
	'defibrillator',
	'icd',
	'lvad',
	'stent',
	'cochlear implant',
	'insulin pump',
	'neurostimulator',
	'shunt',
	'artificial valve',
	'mechanical valve',
	'implanted',
])

/** One pattern per word list, built once: a listed word (or phrase) standing on its own in the text. */
function wordPattern(words: string[]) {
	return new RegExp(`(?:^|[^a-z])(${words.map((w) => w.replace(/ /g, '\\s+')).join('|')})(?![a-z])`)
}

function mentions(text: string | null | undefined, pattern: RegExp) {
	if (!text) return null
	return pattern.exec(text.toLowerCase())?.[1]?.replace(/\s+/g, ' ') ?? null
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

/** A profile's flags, as the responder page, the e-mails and the cards all read them. */
export function profileFlags(profile: {
	medications: Input['medications']
	allergies: Input['allergies']
	medicalConditions: Input['conditions']
	distinguishingMarks?: string | null
	additionalNotes?: string | null
}) {
	return criticalFlags({
		medications: profile.medications,
		allergies: profile.allergies,
		conditions: profile.medicalConditions,
		distinguishingMarks: profile.distinguishingMarks,
		additionalNotes: profile.additionalNotes,
	})
}
