// What a health summary would add to a profile, item by item, beside what the profile already holds: the public shape
// of the import (the review page and POST /api/medical-profiles/{id}/import answer it), and which items a confirmation
// chose. Pure. Each item's id is made from what it says, so the same summary read again gives the same ids, and an item
// that changed meanwhile is not taken for the one reviewed.

import type { z } from 'zod'
import { DomainError } from '#app/utils/errors.ts'
import { AllergySchema, ConditionSchema, MedicationSchema } from '#app/domain/profiles/schemas.ts'
import { DNR_STATUS } from '#app/domain/profiles/vocabularies.ts'
import type { Named, Summary, SummaryDnr } from './ips-read.ts'

/** Items one confirmation adds at most: each is a row written, recorded and confirmed. */
export const MAX_ACCEPTED = 200

export const IMPORT_MESSAGES = {
	noneChosen: 'Tick at least one item to add, or go back without adding anything.',
	tooMany: `At most ${MAX_ACCEPTED} items can be added at once: untick some, add them, then read the summary again for the rest.`,
	changed:
		'The health summary no longer holds an item you chose (it changed since you reviewed it): read it again and review what it holds now.',
	needsDocument: (label: string) =>
		`${label} needs its signed document, which a health summary does not carry: set it under DNR Status on the Medical Information screen, with the document.`,
} as const

/** What the profile holds now (a ProfileDetail fits). */
export type HeldProfile = {
	dnrStatus: string | null
	dnrDocumentKey: string | null
	allergies: ReadonlyArray<{ allergen: string; severity: string; reaction: string | null }>
	medications: ReadonlyArray<{ name: string; dosage: string | null; frequency: string | null; startDate: string | null }>
	medicalConditions: ReadonlyArray<{ condition: string; status: string; diagnosedDate: string | null; notes: string | null }>
}

/** One proposed item: `duplicate` when the profile already has it (by name), `problem` when it cannot be added as it is. */
type Marks = { id: string; duplicate: boolean; problem: string | null; selected: boolean }
type Proposed<Shown, Values> = Shown & Marks & { values: Values | null }

type AllergyShown = { allergen: string | null; severity: string | null; reaction: string | null }
type MedicationShown = { name: string | null; dosage: string | null; frequency: string | null; startDate: string | null }
type ConditionShown = { condition: string | null; status: string; diagnosedDate: string | null; notes: string | null }
type DnrProposed = Marks & { proposed: SummaryDnr; current: string | null }

export type Proposal = {
	allergies: Array<Proposed<AllergyShown, z.output<typeof AllergySchema>>>
	medications: Array<Proposed<MedicationShown, z.output<typeof MedicationSchema>>>
	conditions: Array<Proposed<ConditionShown, z.output<typeof ConditionSchema>>>
	dnrStatus: DnrProposed | null
	current: {
		allergies: Array<HeldProfile['allergies'][number]>
		medications: Array<HeldProfile['medications'][number]>
		conditions: Array<HeldProfile['medicalConditions'][number]>
		dnrStatus: string | null
	}
}

/** Names compared without case or spaces: "Peanut  Butter" is "peanutbutter". */
export const nameKey = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/g, '')

/** A short, stable hash of a text (cyrb53): an item's id, not a secret. */
function hash(text: string) {
	let h1 = 0xdeadbeef
	let h2 = 0x41c6ce57
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i)
		h1 = Math.imul(h1 ^ c, 2654435761)
		h2 = Math.imul(h2 ^ c, 1597334677)
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
	return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

const FIELD_LABELS: Record<string, string> = {
	allergen: 'Allergen',
	severity: 'Severity',
	reaction: 'Reaction',
	name: 'Medication name',
	dosage: 'Dosage',
	frequency: 'Frequency',
	startDate: 'Start date',
	condition: 'Condition',
	status: 'Status',
	diagnosedDate: 'Diagnosed date',
	notes: 'Notes',
}

/** The values as the profile's own form would take them, or why they cannot be added (the form's own message). */
function check<S extends z.ZodType>(schema: S, input: Record<string, unknown>, missing: string | null) {
	if (missing) return { values: null, problem: missing }
	const parsed = schema.safeParse(input)
	if (parsed.success) return { values: parsed.data as z.output<S>, problem: null }
	const issue = parsed.error.issues[0]!
	return { values: null, problem: `${FIELD_LABELS[String(issue.path[0])] ?? 'This item'}: ${issue.message}` }
}

/**
 * Each item found, once: an item whose name or code an earlier one of the same kind had is the same thing listed twice.
 * An item is a duplicate when one of its names is one the profile holds.
 */
function proposeEach<T extends Named, Shown extends object, Values>(
	kind: string,
	found: readonly T[],
	held: readonly string[],
	read: (item: T) => { shown: Shown; values: Values | null; problem: string | null },
): Array<Proposed<Shown, Values>> {
	const heldNames = new Set(held.map(nameKey))
	const seen = new Set<string>()
	const out: Array<Proposed<Shown, Values>> = []
	for (const item of found) {
		const names = [item.text, ...item.displays].filter((n): n is string => !!n?.trim()).map(nameKey)
		const marks = [...names.map((n) => `name:${n}`), ...item.codes.map((c) => `code:${c}`)]
		if (marks.some((m) => seen.has(m))) continue
		for (const m of marks) seen.add(m)
		const duplicate = names.some((n) => heldNames.has(n))
		const { shown, values, problem } = read(item)
		out.push({
			id: `${kind}-${hash(JSON.stringify([kind, shown, item.codes]))}`,
			...shown,
			duplicate,
			problem,
			selected: !duplicate && !problem,
			values,
		})
	}
	return out
}

const noName = (what: string, item: Named) =>
	item.text ? null : `The summary gives this ${what} no name${item.codes.length ? `, only the code ${item.codes[0]}` : ''}: add it by hand.`

export function proposeImport(summary: Summary, profile: HeldProfile): Proposal {
	const allergies = proposeEach(
		'allergy',
		summary.allergies,
		profile.allergies.map((a) => a.allergen),
		(a) => {
			const shown = { allergen: a.text, severity: a.severity, reaction: a.reaction }
			const missing =
				noName('allergy', a) ?? (a.severity ? null : 'The summary gives no severity for this allergy: add it by hand with its severity.')
			return { shown, ...check(AllergySchema, shown, missing) }
		},
	)
	const medications = proposeEach(
		'medication',
		summary.medications,
		profile.medications.map((m) => m.name),
		(m) => {
			const shown = { name: m.text, dosage: m.dosage, frequency: m.frequency, startDate: m.startDate }
			return { shown, ...check(MedicationSchema, shown, noName('medication', m)) }
		},
	)
	const conditions = proposeEach(
		'condition',
		summary.conditions,
		profile.medicalConditions.map((c) => c.condition),
		(c) => {
			const shown = { condition: c.text, status: c.status, diagnosedDate: c.diagnosedDate, notes: c.notes }
			return { shown, ...check(ConditionSchema, shown, noName('condition', c)) }
		},
	)
	const current = DNR_STATUS.read(profile.dnrStatus) ?? profile.dnrStatus ?? null
	return {
		allergies,
		medications,
		conditions,
		dnrStatus: summary.dnrStatus ? dnrProposal(summary.dnrStatus, current, profile.dnrDocumentKey !== null) : null,
		current: {
			allergies: profile.allergies.map(({ allergen, severity, reaction }) => ({ allergen, severity, reaction })),
			medications: profile.medications.map(({ name, dosage, frequency, startDate }) => ({ name, dosage, frequency, startDate })),
			conditions: profile.medicalConditions.map(({ condition, status, diagnosedDate, notes }) => ({
				condition,
				status,
				diagnosedDate,
				notes,
			})),
			dnrStatus: current,
		},
	}
}

/**
 * The status the summary gives. DNR and POLST need their document, which stays the one on file: without one it cannot be
 * set here. Ticked at first only where the profile has no status yet; one that would replace another is left to the person.
 */
function dnrProposal(proposed: SummaryDnr, current: string | null, hasDocument: boolean): DnrProposed {
	const duplicate = current === proposed
	const needsDocument = (proposed === 'DNR' || proposed === 'POLST') && !hasDocument
	const problem = needsDocument ? IMPORT_MESSAGES.needsDocument(DNR_STATUS.labels[proposed]) : null
	return {
		id: `dnr-${proposed}`,
		proposed,
		current,
		duplicate,
		problem,
		selected: !duplicate && !problem && (current === null || current === 'Unknown'),
	}
}

/** The proposal as answered: each item's values as they will be written stay inside. */
export function toImportView({ allergies, medications, conditions, dnrStatus, current }: Proposal) {
	const strip = <T extends { values: unknown }>({ values: _values, ...item }: T) => item
	return {
		allergies: allergies.map(strip),
		medications: medications.map(strip),
		conditions: conditions.map(strip),
		dnrStatus,
		current,
	}
}
export type ImportView = ReturnType<typeof toImportView>

/** How a refusal names an item: its name as the summary gives it (the first 60 characters of a long one). */
function labelOf(item: Marks) {
	if ('proposed' in item) return 'The DNR status'
	const named = item as Marks & { allergen?: string | null; name?: string | null; condition?: string | null }
	const name = named.allergen ?? named.name ?? named.condition ?? null
	return name ? `“${name.length > 60 ? `${name.slice(0, 60)}…` : name}”` : 'An item without a name'
}

/**
 * The items a confirmation chose, with the values to write. Refused: none chosen, too many, an id the summary no longer
 * holds (409), an item that cannot be added as it is (its problem). A chosen duplicate is added again; a chosen status
 * the profile already has changes nothing.
 */
export function chooseItems(proposal: Proposal, accept: readonly string[]) {
	const ids = [...new Set(accept)]
	if (!ids.length) throw new DomainError(400, IMPORT_MESSAGES.noneChosen, 'accept')
	if (ids.length > MAX_ACCEPTED) throw new DomainError(400, IMPORT_MESSAGES.tooMany, 'accept')
	const items = new Map<string, Marks>(
		[...proposal.allergies, ...proposal.medications, ...proposal.conditions, ...(proposal.dnrStatus ? [proposal.dnrStatus] : [])].map(
			(item) => [item.id, item],
		),
	)
	for (const id of ids) {
		const item = items.get(id)
		if (!item) throw new DomainError(409, IMPORT_MESSAGES.changed, 'accept')
		if (item.problem) throw new DomainError(400, `${labelOf(item)} cannot be added: ${item.problem}`, 'accept')
	}
	const taken = <T extends { id: string; values: unknown }>(list: readonly T[]) =>
		list.filter((item) => ids.includes(item.id)).map((item) => item.values as NonNullable<T['values']>)
	const dnr = proposal.dnrStatus
	return {
		allergies: taken(proposal.allergies),
		medications: taken(proposal.medications),
		conditions: taken(proposal.conditions),
		dnrStatus: dnr && ids.includes(dnr.id) && !dnr.duplicate ? dnr.proposed : null,
	}
}
