// The fields of spec 001 §3 whose values come from a fixed list: one vocabulary each. A vocabulary holds the values
// stored (and offered, in this order), their labels, and every other spelling the spec uses for them, which is read as
// the stored value: whatever spelling a client sent or an older version stored, a form shows it as selected.
// Zod-free, so the browser can use it without zod.

import { RELATIONSHIP_LABELS } from './profile-label.ts'

export type Vocabulary<V extends string> = {
	readonly values: readonly [V, ...V[]]
	readonly labels: Readonly<Record<V, string>>
	/** The stored value a spelling stands for; undefined for anything outside the vocabulary. */
	read(value: unknown): V | undefined
}

function vocabulary<const V extends string>(
	values: readonly [V, ...V[]],
	labels: Partial<Record<V, string>> = {},
	spellings: Readonly<Record<string, V>> = {},
): Vocabulary<V> {
	// Looked up trimmed and in lower case: 'o+', ' Male ' and 'dnr' are the values they spell.
	const known = new Map<string, V>(
		[...values.map((v): [string, V] => [v, v]), ...Object.entries(spellings)].map(([spelling, v]) => [spelling.toLowerCase(), v]),
	)
	return {
		values,
		labels: Object.fromEntries(values.map((v) => [v, labels[v] ?? v])) as Record<V, string>,
		read: (value) => (typeof value === 'string' ? known.get(value.trim().toLowerCase()) : undefined),
	}
}

/** A profile's relationship to the account holder; 'self' marks the holder's own (labels read too: 'Yourself'). */
export const RELATIONSHIP = vocabulary(['self', 'child', 'spouse', 'partner', 'parent'], RELATIONSHIP_LABELS, { yourself: 'self' })

const GENDERS_STORED = ['Male', 'Female', 'Non-binary', 'Other', 'Prefer not to say'] as const
/**
 * Spec 001 spells gender two ways: the profile detail 'Male', 'Female', 'Other', 'Prefer not to say'; the profile list
 * and the family member's form 'male', 'female', 'non-binary', 'other'. Both are read as one value, stored as the
 * detail spells it; the list answers it in lower case.
 */
export const GENDER = vocabulary(GENDERS_STORED)
/** What the family member's form offers (spec 001 §3, the profile list's genders). */
export const FAMILY_GENDERS = ['Male', 'Female', 'Non-binary', 'Other'] as const

/** The profile list's spelling (spec 001 §3); a value outside the vocabulary is answered as stored. */
export function listGender(gender: string | null) {
	return GENDER.read(gender)?.toLowerCase() ?? gender
}

export const BLOOD_TYPE = vocabulary(['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'])

export const SEVERITY = vocabulary(['Mild', 'Moderate', 'Severe'])

export const CONDITION_STATUS = vocabulary(['Active', 'Chronic', 'Managed', 'Resolved', 'Under Treatment'])
/** Spec 001 §3: the add form offers only these; editing offers every status. */
export const NEW_CONDITION_STATUSES = ['Active', 'Resolved', 'Chronic'] as const

export const POLICY_RELATIONSHIP = vocabulary(['self', 'spouse', 'child', 'parent', 'other'], {
	self: 'Self',
	spouse: 'Spouse',
	child: 'Child',
	parent: 'Parent',
	other: 'Other',
})

export const PLAN_TYPE = vocabulary(['HMO', 'PPO', 'EPO', 'POS', 'other'], { other: 'Other' })

/** Spec 001 §3 gives each status a label too ('No DNR', 'Do Not Resuscitate', 'POLST on File'): each is read as its status. */
export const DNR_STATUS = vocabulary(
	['None', 'DNR', 'POLST', 'Unknown'],
	{ None: 'No DNR', DNR: 'Do Not Resuscitate', POLST: 'POLST on File' },
	{ 'No DNR': 'None', 'Do Not Resuscitate': 'DNR', 'POLST on File': 'POLST' },
)

/** Each row's fields with a vocabulary, by what the row is. */
export const VOCABULARY_FIELDS = {
	profile: { relationshipToUser: RELATIONSHIP, gender: GENDER, bloodType: BLOOD_TYPE, dnrStatus: DNR_STATUS },
	allergy: { severity: SEVERITY },
	condition: { status: CONDITION_STATUS },
	policy: { relationship: POLICY_RELATIONSHIP, planType: PLAN_TYPE },
} as const

/** A row with each vocabulary field read as its stored value; a value outside the vocabulary stays as it is. */
export function readVocabularies<T extends Record<string, unknown>>(row: T, fields: Readonly<Record<string, Vocabulary<string>>>): T {
	const read = { ...row } as Record<string, unknown>
	for (const [field, vocabulary] of Object.entries(fields))
		if (typeof read[field] === 'string') read[field] = vocabulary.read(read[field]) ?? read[field]
	return read as T
}

type Rows = ReadonlyArray<Record<string, unknown>>
/** A profile with its rows, each vocabulary field read as its stored value (a value outside it stays as it is). */
export function readProfile<P extends Record<string, unknown> & { allergies: Rows; medicalConditions: Rows; insurancePolicies: Rows }>(
	profile: P,
): P {
	return {
		...readVocabularies(profile, VOCABULARY_FIELDS.profile),
		allergies: profile.allergies.map((a) => readVocabularies(a, VOCABULARY_FIELDS.allergy)),
		medicalConditions: profile.medicalConditions.map((c) => readVocabularies(c, VOCABULARY_FIELDS.condition)),
		insurancePolicies: profile.insurancePolicies.map((p) => readVocabularies(p, VOCABULARY_FIELDS.policy)),
	}
}

/**
 * A value sent for a field that is outside its vocabulary. A form shows a stored value it does not know (an older
 * version's, say) as it is and sends it back; such a value is kept when it is what the field holds, and refused
 * (with `message`) otherwise, so a save never replaces what a form could not show.
 */
export class Unlisted {
	constructor(
		readonly value: string,
		readonly message: string,
	) {}
}

/** Fields of a change as sent: a vocabulary field may hold a value outside its vocabulary. */
export type Sent<T> = { [K in keyof T]: T[K] | Unlisted }
export type Settled<T> = { [K in keyof T]: Exclude<T[K], Unlisted> }
