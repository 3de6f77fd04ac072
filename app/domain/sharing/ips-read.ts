// Reading a health summary someone brings: a FHIR R4 Bundle (an International Patient Summary, as this app and others
// make it), as far as a profile can hold it: allergies, medications, conditions and the DNR status. A file from anyone
// is checked before any other work: its size, how deeply it nests and its keys before it is parsed, then its shape
// (zod, every list and text capped) before anything is read from it. Every refusal is a DomainError(400) with words a
// person can act on, never a crash. Pure: no database, no network.

import { z } from 'zod'
import { DomainError } from '#app/utils/errors.ts'
import { CONDITION_STATUS, type SEVERITY } from '#app/domain/profiles/vocabularies.ts'
import { IPS_DOCUMENT, IPS_SECTIONS, LOINC } from './ips.ts'

/** The largest summary read, checked before it is parsed: the app's own for a full profile is a few tens of KB. */
export const SUMMARY_MAX_BYTES = 1024 * 1024
export const SUMMARY_MESSAGES = {
	tooLarge: 'This health summary is too large: the limit is 1 MB.',
	notJson: 'This file is not JSON: a health summary is a FHIR JSON file (.json).',
	tooDeep: 'This file is nested far more deeply than any health summary: it was not read.',
	forbiddenKey: (key: string) => `This file holds a key no health summary has (“${key}”): it was not read.`,
	notBundle: 'This file is not a FHIR Bundle: a health summary starts with "resourceType": "Bundle".',
	noContent: 'This health summary holds no allergies, medications, conditions or advance directive that a profile can take.',
} as const

/** Nesting the app's own summary reaches is about 10; a hostile file nests thousands deep to exhaust a parser's stack. */
const MAX_DEPTH = 32
/** Entries in the Bundle. */
export const MAX_ENTRIES = 1000
/** Any one text of the summary (the profile's own fields are shorter: a longer value is refused per item). */
const TEXT_MAX = 10_000
/** Any list inside a resource (codings, reactions, notes, sections). */
const LIST_MAX = 50
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

class ForbiddenKey extends Error {}

/** Deeper than MAX_DEPTH, counted over the text before JSON.parse sees it (brackets inside strings do not count). */
function tooDeep(text: string) {
	let depth = 0
	let inString = false
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i)
		if (inString) {
			if (c === 0x5c) i++
			else if (c === 0x22) inString = false
		} else if (c === 0x22) inString = true
		else if (c === 0x7b || c === 0x5b) {
			if (++depth > MAX_DEPTH) return true
		} else if (c === 0x7d || c === 0x5d) depth--
	}
	return false
}

export function byteLength(text: string) {
	// Each UTF-16 unit is at most 3 bytes of UTF-8: most texts are decided without encoding them.
	if (text.length * 3 <= SUMMARY_MAX_BYTES) return text.length
	return new TextEncoder().encode(text).byteLength
}

/**
 * JSON text as a value: its size and nesting checked first, prototype keys (`__proto__`, `constructor`, `prototype`)
 * refused, NUL characters dropped (PostgreSQL text cannot hold them). `field` is where a refusal is shown.
 */
export function parseSummaryJson(text: string, field: string, maxBytes = SUMMARY_MAX_BYTES): unknown {
	if (byteLength(text) > maxBytes) throw new DomainError(413, SUMMARY_MESSAGES.tooLarge, field)
	if (tooDeep(text)) throw new DomainError(400, SUMMARY_MESSAGES.tooDeep, field)
	try {
		return JSON.parse(text, (key, value: unknown) => {
			if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKey(key)
			return typeof value === 'string' ? value.replaceAll('\0', '') : value
		})
	} catch (error) {
		if (error instanceof ForbiddenKey) throw new DomainError(400, SUMMARY_MESSAGES.forbiddenKey(error.message), field)
		throw new DomainError(400, SUMMARY_MESSAGES.notJson, field)
	}
}

// The parts of FHIR R4 read here; everything else of a resource is dropped (zod strips unknown keys).
const text = (max = TEXT_MAX) => z.string().max(max)
const list = <T extends z.ZodType>(item: T, max = LIST_MAX) => z.array(item).max(max)
const Coding = z.object({ system: text(500).optional(), code: text(200).optional(), display: text().optional() })
const Concept = z.object({ coding: list(Coding).optional(), text: text().optional() })
const Reference = z.object({ reference: text(500).optional() })
const Dosage = z.object({ text: text().optional(), timing: z.object({ code: Concept.optional() }).optional() })
const DateText = text(40)

const RESOURCES = {
	Composition: z.object({
		resourceType: z.literal('Composition'),
		type: Concept.optional(),
		section: list(z.object({ code: Concept.optional(), emptyReason: Concept.optional() })).optional(),
	}),
	AllergyIntolerance: z.object({
		resourceType: z.literal('AllergyIntolerance'),
		clinicalStatus: Concept.optional(),
		verificationStatus: Concept.optional(),
		criticality: text(40).optional(),
		code: Concept.optional(),
		reaction: list(
			z.object({ manifestation: list(Concept).optional(), severity: text(40).optional(), description: text().optional() }),
		).optional(),
	}),
	MedicationStatement: z.object({
		resourceType: z.literal('MedicationStatement'),
		status: text(40).optional(),
		medicationCodeableConcept: Concept.optional(),
		medicationReference: Reference.optional(),
		effectiveDateTime: DateText.optional(),
		effectivePeriod: z.object({ start: DateText.optional() }).optional(),
		dosage: list(Dosage).optional(),
	}),
	MedicationRequest: z.object({
		resourceType: z.literal('MedicationRequest'),
		status: text(40).optional(),
		medicationCodeableConcept: Concept.optional(),
		medicationReference: Reference.optional(),
		authoredOn: DateText.optional(),
		dosageInstruction: list(Dosage).optional(),
	}),
	Medication: z.object({ resourceType: z.literal('Medication'), id: text(64).optional(), code: Concept.optional() }),
	Condition: z.object({
		resourceType: z.literal('Condition'),
		clinicalStatus: Concept.optional(),
		verificationStatus: Concept.optional(),
		code: Concept.optional(),
		onsetDateTime: DateText.optional(),
		note: list(z.object({ text: text() })).optional(),
	}),
	Consent: z.object({
		resourceType: z.literal('Consent'),
		status: text(40).optional(),
		category: list(Concept).optional(),
		provision: z.object({ type: text(40).optional(), code: list(Concept).optional() }).optional(),
	}),
} as const
type Kind = keyof typeof RESOURCES
type Resource<K extends Kind> = z.output<(typeof RESOURCES)[K]>
type Concept = z.output<typeof Concept>

const isKind = (type: string): type is Kind => Object.hasOwn(RESOURCES, type)

const BundleSchema = z.object({
	resourceType: z.literal('Bundle'),
	type: text(40).optional(),
	entry: list(
		z.object({
			fullUrl: text(500).optional(),
			resource: z.looseObject({ resourceType: text(64), id: text(64).optional() }),
		}),
		MAX_ENTRIES,
	).optional(),
})

/** A zod issue in words: where in the file, and what is wrong there. */
function describe(issue: z.core.$ZodIssue, prefix: (string | number)[] = []) {
	const path = [...prefix, ...issue.path].map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
	const where = path ? ` at ${path.slice(path.startsWith('.') ? 1 : 0)}` : ''
	let what = issue.message
	if (issue.code === 'too_big' && issue.origin === 'string') what = `a text longer than ${issue.maximum} characters`
	else if (issue.code === 'too_big' && issue.origin === 'array') what = `a list longer than ${issue.maximum} items`
	else if (issue.code === 'invalid_type')
		what = `expected ${issue.expected === 'string' ? 'text' : `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`}`
	return `This health summary could not be read${where}: ${what}.`
}

/** One thing the summary names: its words and its codes (`system|code`). */
export type Named = { text: string | null; displays: string[]; codes: string[] }
export type SummaryAllergy = Named & { severity: (typeof SEVERITY.values)[number] | null; reaction: string | null }
export type SummaryMedication = Named & { dosage: string | null; frequency: string | null; startDate: string | null }
export type SummaryCondition = Named & {
	status: (typeof CONDITION_STATUS.values)[number]
	diagnosedDate: string | null
	notes: string | null
}
export type SummaryDnr = 'DNR' | 'POLST' | 'None'
export type Summary = {
	allergies: SummaryAllergy[]
	medications: SummaryMedication[]
	conditions: SummaryCondition[]
	dnrStatus: SummaryDnr | null
	/** The Bundle cut down to what was read: what a review form carries back to be read again when confirmed. */
	reduced: { resourceType: 'Bundle'; entry: Array<{ fullUrl?: string; resource: Record<string, unknown> }> }
}

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== ''
const codesOf = (concept: Concept | undefined) =>
	(concept?.coding ?? []).filter((c) => present(c.code)).map((c) => `${(c.system ?? '').trim()}|${c.code!.trim()}`)
const codeIn = (concept: Concept | undefined, ...codes: string[]) =>
	(concept?.coding ?? []).some((c) => c.code !== undefined && codes.includes(c.code.trim().toLowerCase()))

function named(concept: Concept | undefined): Named {
	const displays = (concept?.coding ?? []).map((c) => c.display).filter(present)
	return { text: present(concept?.text) ? concept.text : (displays[0] ?? null), displays, codes: codesOf(concept) }
}

/** The words of a concept: its text, else its first coding's display; null for one that says nothing (data absent). */
const wordsOf = (concept: Concept | undefined) => named(concept).text

/** A FHIR date or dateTime as the profile keeps dates (YYYY-MM-DD); a year or month alone is not a day, so none. */
function dayOf(value: string | undefined) {
	const day = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(value?.trim() ?? '')?.[1]
	return day && !Number.isNaN(Date.parse(day)) ? day : null
}

const SEVERITY_RANK = { mild: 1, moderate: 2, severe: 3 } as const
const SEVERITY_OF = { 1: 'Mild', 2: 'Moderate', 3: 'Severe' } as const

function allergyOf(a: Resource<'AllergyIntolerance'>): SummaryAllergy | null {
	if (codeIn(a.verificationStatus, 'entered-in-error', 'refuted')) return null
	if (codeIn(a.clinicalStatus, 'inactive', 'resolved')) return null
	const reactions = a.reaction ?? []
	const rank = Math.max(
		0,
		...reactions.map((r) => SEVERITY_RANK[(r.severity?.trim().toLowerCase() ?? '') as keyof typeof SEVERITY_RANK] ?? 0),
	)
	const severity = rank ? SEVERITY_OF[rank as 1 | 2 | 3] : a.criticality?.trim().toLowerCase() === 'high' ? 'Severe' : null
	const words = reactions.flatMap((r) => [...(r.manifestation ?? []).map(wordsOf), r.description ?? null]).filter(present)
	return { ...named(a.code), severity, reaction: words.length ? [...new Set(words)].join(', ') : null }
}

/** Statuses of a medication no longer (or never) taken: the profile lists what is taken now. */
const NOT_TAKEN = ['completed', 'entered-in-error', 'stopped', 'not-taken', 'cancelled']

function medicationOf(
	m: Resource<'MedicationStatement'> | Resource<'MedicationRequest'>,
	medications: Map<string, Resource<'Medication'>>,
): SummaryMedication | null {
	if (NOT_TAKEN.includes(m.status?.trim().toLowerCase() ?? '')) return null
	const concept = m.medicationCodeableConcept ?? medications.get(m.medicationReference?.reference?.trim() ?? '')?.code
	const statement = m.resourceType === 'MedicationStatement' ? m : null
	const request = m.resourceType === 'MedicationRequest' ? m : null
	const dose = (statement?.dosage ?? request?.dosageInstruction)?.[0]
	const frequency = wordsOf(dose?.timing?.code)
	const whole = present(dose?.text) ? dose.text.trim() : null
	// This app writes the instruction as "dosage, frequency" with the frequency as its timing too: split it back.
	let dosage = whole
	if (whole && frequency)
		dosage = whole === frequency ? null : whole.endsWith(`, ${frequency}`) ? whole.slice(0, -frequency.length - 2) : whole
	const start = statement ? (statement.effectivePeriod?.start ?? statement.effectiveDateTime) : request?.authoredOn
	return { ...named(concept), dosage, frequency, startDate: dayOf(start) }
}

function conditionOf(c: Resource<'Condition'>): SummaryCondition | null {
	if (codeIn(c.verificationStatus, 'entered-in-error', 'refuted')) return null
	const over = codeIn(c.clinicalStatus, 'inactive', 'remission', 'resolved')
	// This app's own status (Chronic, Managed…) is the text beside the code, when it agrees with the code.
	const own = CONDITION_STATUS.read(c.clinicalStatus?.text)
	const status = own && (own === 'Resolved') === over ? own : over ? 'Resolved' : 'Active'
	const notes = (c.note ?? []).map((n) => n.text.trim()).filter(present)
	return { ...named(c.code), status, diagnosedDate: dayOf(c.onsetDateTime), notes: notes.length ? notes.join('\n') : null }
}

/** DNR or POLST from an active advance-directive Consent (its category, or a provision denying resuscitation). */
function directiveOf(c: Resource<'Consent'>): SummaryDnr | null {
	if (c.status && !['active'].includes(c.status.trim().toLowerCase())) return null
	if ((c.category ?? []).some((k) => codeIn(k, 'dnr'))) return 'DNR'
	const deniesCpr = c.provision?.type === 'deny' && (c.provision.code ?? []).some((k) => codeIn(k, '89666000'))
	if (deniesCpr) return 'DNR'
	if ((c.category ?? []).some((k) => codeIn(k, 'polst'))) return 'POLST'
	return null
}

const isLoinc = (concept: Concept | undefined, code: string) => (concept?.coding ?? []).some((c) => c.system === LOINC && c.code === code)

/**
 * What a Bundle holds for a profile. Refused (400, on `field`): anything but a Bundle, a resource of a kind read here
 * whose parts have the wrong types or sizes, and a Bundle with nothing a profile can take.
 */
export function readBundle(value: unknown, field: string): Summary {
	if (!value || typeof value !== 'object' || Array.isArray(value)) throw new DomainError(400, SUMMARY_MESSAGES.notBundle, field)
	if ((value as { resourceType?: unknown }).resourceType !== 'Bundle') throw new DomainError(400, SUMMARY_MESSAGES.notBundle, field)
	const bundle = BundleSchema.safeParse(value)
	if (!bundle.success) throw new DomainError(400, describe(bundle.error.issues[0]!), field)

	const read: Array<{ fullUrl?: string; resource: Resource<Kind> }> = []
	for (const [i, entry] of (bundle.data.entry ?? []).entries()) {
		const type = entry.resource.resourceType
		if (!isKind(type)) continue
		const parsed = RESOURCES[type].safeParse(entry.resource)
		if (!parsed.success) throw new DomainError(400, describe(parsed.error.issues[0]!, ['entry', i, 'resource']), field)
		read.push({ ...(entry.fullUrl !== undefined && { fullUrl: entry.fullUrl }), resource: parsed.data })
	}
	const of = <K extends Kind>(kind: K) => read.map((e) => e.resource).filter((r): r is Resource<K> => r.resourceType === kind)

	// A Medication is named by its entry's fullUrl or as Medication/{id}.
	const medications = new Map<string, Resource<'Medication'>>()
	for (const { fullUrl, resource } of read)
		if (resource.resourceType === 'Medication') {
			if (fullUrl) medications.set(fullUrl.trim(), resource)
			if (resource.id) medications.set(`Medication/${resource.id.trim()}`, resource)
		}

	const directives = of('Consent')
		.map(directiveOf)
		.filter((d) => d !== null)
	// "Nil known" in the advance-directive section of a patient summary: the person has none (this app's "No DNR").
	const nilKnown = of('Composition').some(
		(c) =>
			isLoinc(c.type, IPS_DOCUMENT.code) &&
			(c.section ?? []).some((s) => isLoinc(s.code, IPS_SECTIONS.advanceDirectives.code) && codeIn(s.emptyReason, 'nilknown')),
	)
	const summary: Summary = {
		allergies: of('AllergyIntolerance')
			.map(allergyOf)
			.filter((a) => a !== null),
		medications: [...of('MedicationStatement'), ...of('MedicationRequest')]
			.map((m) => medicationOf(m, medications))
			.filter((m) => m !== null),
		conditions: of('Condition')
			.map(conditionOf)
			.filter((c) => c !== null),
		dnrStatus: directives.includes('DNR') ? 'DNR' : (directives[0] ?? (nilKnown ? 'None' : null)),
		reduced: { resourceType: 'Bundle', entry: read },
	}
	if (!summary.allergies.length && !summary.medications.length && !summary.conditions.length && !summary.dnrStatus)
		throw new DomainError(400, SUMMARY_MESSAGES.noContent, field)
	return summary
}
