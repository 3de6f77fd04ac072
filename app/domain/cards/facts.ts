import { profileFlags } from '#app/domain/responder/critical-flags.ts'
import { ageAndBirth, dateText } from '#app/domain/responder/dates.ts'
import { LABELS, type Labels, type Language } from '#app/domain/responder/labels.ts'
import type { SummaryProfile } from '#app/domain/responder/summary.ts'

/** What the wallet card and the lock-screen image read of a profile: the responder page's facts, and who and since when. */
export type CardProfile = SummaryProfile & {
	firstName: string | null
	lastName: string | null
	confirmedAt: Date | null
	createdAt: Date
}

/** The profile's facts as the lines a card prints, in one language, most urgent first within each list. */
export type CardFacts = {
	lang: Language
	labels: Labels
	name: string
	status: { text: string; emphatic: boolean; details: string[] }
	flags: string[]
	allergies: string[]
	medications: string[]
	conditions: string[]
	contacts: Array<{ name: string; phone: string }>
	bloodType: string | null
	confirmed: string
}

/**
 * What the fridge sheet reads of a profile besides: the rest of what the responder page shows (the date of birth, the
 * identity details, insurance, the notes of each condition).
 */
export type SheetProfile = CardProfile & {
	dateOfBirth: string | null
	height: string | null
	weight: string | null
	hairColor: string | null
	eyeColor: string | null
	insurance: string | null
	insurancePolicies: Array<{ provider: string; policyNumber: string | null; groupNumber: string | null; providerPhone: string | null }>
}

/** The card's facts with each condition's notes, and the lines only the fridge sheet has room for. */
export type SheetFacts = CardFacts & {
	/** "Age 76 · Born June 15, 1950", or null without a date of birth. */
	born: string | null
	identity: string[]
	insurance: string[]
	/** The notes, a line of their own for each line written. */
	notes: string[]
}

/** French sets a space before a colon. */
export function colon(lang: Language) {
	return lang === 'fr' ? '\u00a0: ' : ': '
}

const SEVERITY_ORDER: Record<string, number> = { Severe: 0, Moderate: 1, Mild: 2 }

/** Control characters, lone surrogates and non-characters have no place in a PDF's text or an SVG's XML. */
const clean = (text: string) => text.replace(/[\p{Cc}\p{Cs}\uFFFE\uFFFF]/gu, ' ')

export function cardFacts(profile: CardProfile, lang: Language): CardFacts {
	return cleanFacts(rawFacts(profile, lang, false))
}

/** The fridge sheet's facts: everything the responder page shows, as of `today` (for the age). */
export function sheetFacts(profile: SheetProfile, lang: Language, today = new Date()): SheetFacts {
	const t = LABELS[lang]
	const c = colon(lang)
	const described = (pairs: Array<[string, string | null]>) =>
		pairs
			.filter(([, value]) => value)
			.map(([key, value]) => `${key}${c}${value}`)
			.join(' · ')
	// The short measures share a line; distinguishing marks, often a sentence, get their own.
	const identity = [
		described([
			[t.height, profile.height],
			[t.weight, profile.weight],
			[t.hair, profile.hairColor],
			[t.eyes, profile.eyeColor],
		]),
		described([[t.marks, profile.distinguishingMarks]]),
	]
	// No-break spaces keep a number with its label, and a phone number whole, when the line wraps.
	const whole = (text: string) => text.replace(/ /g, '\u00a0')
	const policies = profile.insurancePolicies.map((p) =>
		[
			p.provider,
			p.policyNumber && whole(`${t.policy} ${p.policyNumber}`),
			p.groupNumber && whole(`${t.group} ${p.groupNumber}`),
			p.providerPhone && whole(p.providerPhone),
		]
			.filter(Boolean)
			.join(' · '),
	)
	return {
		...cleanFacts(rawFacts(profile, lang, true)),
		born: profile.dateOfBirth ? clean(ageAndBirth(lang, profile.dateOfBirth, today)) : null,
		identity: identity.filter(Boolean).map(clean),
		insurance: [...policies, ...(profile.insurance ? [profile.insurance] : [])].map(clean),
		notes: (profile.additionalNotes ?? '')
			.split(/\r?\n/)
			.map((line) => clean(line).trim())
			.filter(Boolean),
	}
}

function cleanFacts(facts: CardFacts): CardFacts {
	return {
		...facts,
		name: clean(facts.name),
		status: { ...facts.status, details: facts.status.details.map(clean) },
		flags: facts.flags.map(clean),
		allergies: facts.allergies.map(clean),
		medications: facts.medications.map(clean),
		conditions: facts.conditions.map(clean),
		contacts: facts.contacts.map((c) => ({ name: clean(c.name), phone: clean(c.phone) })),
		bloodType: facts.bloodType === null ? null : clean(facts.bloodType),
	}
}

/** `conditionNotes`: each condition with its notes, as the responder page shows it (the sheet has the room; a card has not). */
function rawFacts(profile: CardProfile, lang: Language, conditionNotes: boolean): CardFacts {
	const t = LABELS[lang]
	const label = (key: string) => (t as Record<string, string>)[key] ?? key
	const c = colon(lang)
	const dnr = profile.dnrStatus
	const emphatic = dnr === 'DNR' || dnr === 'POLST'
	const flags = profileFlags(profile)
	// When a list is cut short the first lines are what stays: severe allergies, then flagged medications, then current conditions.
	const allergies = [...profile.allergies].sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3))
	const flagged = new Set(flags.filter((f) => f.kind === 'anticoagulant' || f.kind === 'insulin').map((f) => f.detail))
	const medications = [...profile.medications].sort((a, b) => Number(!flagged.has(a.name)) - Number(!flagged.has(b.name)))
	const conditions = [...profile.medicalConditions].sort((a, b) => Number(a.status === 'Resolved') - Number(b.status === 'Resolved'))
	const name = profile.fullName ?? ([profile.firstName, profile.lastName].filter(Boolean).join(' ') || null)
	return {
		lang,
		labels: t,
		name: name ?? t.unnamed,
		status: {
			text: dnr === 'DNR' ? t.dnr : dnr === 'POLST' ? t.polst : dnr === 'Unknown' ? t.unknownDnr : t.noDnr,
			emphatic,
			details: emphatic
				? [
						profile.dnrDocumentDate ? `${t.signed} ${dateText(lang, profile.dnrDocumentDate)}` : null,
						profile.dnrOriginalLocation ? `${t.originalKept}${c}${profile.dnrOriginalLocation}` : null,
					].filter((d): d is string => d !== null)
				: [],
		},
		flags: flags.map((f) => `${label(`flag_${f.kind}`)}${c}${f.detail}`),
		allergies: allergies.map((a) => `${a.allergen} (${label(a.severity)})${a.reaction ? `${c}${a.reaction}` : ''}`),
		medications: medications.map((m) => [m.name, [m.dosage, m.frequency].filter(Boolean).join(', ')].filter(Boolean).join(' ')),
		conditions: conditions.map((m) => `${m.condition} (${label(m.status)})${conditionNotes && m.notes ? `${c}${m.notes}` : ''}`),
		contacts: profile.emergencyContacts.map((c) => ({ name: `${c.name} (${c.relationship})`, phone: c.phoneNumber })),
		bloodType: profile.bloodType,
		confirmed: `${t.lastConfirmed} ${dateText(lang, profile.confirmedAt ?? profile.createdAt)}`,
	}
}

/** "+3 more: scan the code", in the card's language. */
export function moreLine(labels: Labels, hidden: number) {
	return labels.moreToScan.replace('{n}', String(hidden))
}
