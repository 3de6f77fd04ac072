// The profile as an HL7 International Patient Summary: a FHIR R4 document Bundle. Pure: the same profile, time and ids
// give the same document.

import { escapeMarkup } from '#app/utils/escape.ts'

/** What the summary reads of a profile (a ProfileDetail fits). */
export type IpsProfile = {
	fullName: string | null
	firstName: string | null
	middleName: string | null
	lastName: string | null
	dateOfBirth: string | null
	gender: string | null
	phoneNumber: string | null
	dnrStatus: string | null
	dnrDocumentName: string | null
	dnrDocumentDate: string | null
	dnrOriginalLocation: string | null
	emergencyContacts: Array<{ name: string; relationship: string; phoneNumber: string; email: string | null }>
	allergies: Array<{ allergen: string; severity: string; reaction: string | null }>
	medications: Array<{ name: string; dosage: string | null; frequency: string | null; startDate: string | null }>
	medicalConditions: Array<{ condition: string; status: string; diagnosedDate: string | null; notes: string | null }>
}

export type IpsOptions = {
	now?: Date
	/** A new UUID per call; the Bundle, its identifier and every entry get one. */
	uuid?: () => string
	/** The organisation that assembled the document: its author. */
	author?: string
}

type Json = Record<string, unknown>
type Coding = { system: string; code: string; display?: string }
export type FhirResource = Json & { resourceType: string; id: string }
export type IpsEntry = { fullUrl: string; resource: FhirResource }
export type IpsBundle = {
	resourceType: 'Bundle'
	id: string
	language: string
	identifier: { system: string; value: string }
	type: 'document'
	timestamp: string
	entry: IpsEntry[]
}

export const LOINC = 'http://loinc.org'
export const IPS_DOCUMENT = { system: LOINC, code: '60591-5', display: 'Patient summary Document' } as const

/** The sections every summary carries, in this order, whether or not the profile has anything for them. */
export const IPS_SECTIONS = {
	allergies: { title: 'Allergies and Intolerances', code: '48765-2', display: 'Allergies and adverse reactions Document' },
	medications: { title: 'Medication Summary', code: '10160-0', display: 'History of Medication use Narrative' },
	problems: { title: 'Problem List', code: '11450-4', display: 'Problem list - Reported' },
	advanceDirectives: { title: 'Advance Directives', code: '42348-3', display: 'Advance directives' },
} as const
/** Resolved conditions: not current problems, so the IPS puts them in the past-illness section. */
export const PAST_ILLNESS_SECTION = {
	title: 'History of Past Illness',
	code: '11348-0',
	display: 'History of Past illness Narrative',
} as const

const EMPTY_REASON = 'http://terminology.hl7.org/CodeSystem/list-empty-reason'
const DATA_ABSENT = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason'
const XHTML = 'http://www.w3.org/1999/xhtml'
/** A value that was not recorded (a CodeableConcept the IPS requires). */
const ABSENT = { extension: [{ url: DATA_ABSENT, valueCode: 'unknown' }] }

/** Problems still being lived with are active; only Resolved is over. */
export const CONDITION_CLINICAL_STATUS: Record<string, 'active' | 'resolved'> = {
	Active: 'active',
	Chronic: 'active',
	Managed: 'active',
	'Under Treatment': 'active',
	Resolved: 'resolved',
}

/** The app's genders (the profile form's and the family form's) as FHIR's administrative genders. */
export function fhirGender(gender: string | null) {
	switch (gender?.trim().toLowerCase()) {
		case 'male':
			return 'male'
		case 'female':
			return 'female'
		case 'non-binary':
		case 'other':
			return 'other'
		case 'prefer not to say':
			return 'unknown'
		default:
			return undefined
	}
}

const ADVANCE_DIRECTIVES: Record<string, { category: Coding; rule: string; deniesCpr: boolean }> = {
	DNR: {
		category: { system: 'http://terminology.hl7.org/CodeSystem/consentcategorycodes', code: 'dnr', display: 'Do Not Resuscitate' },
		rule: 'Do not attempt resuscitation (DNR order)',
		deniesCpr: true,
	},
	POLST: {
		category: { system: 'http://terminology.hl7.org/CodeSystem/consentcategorycodes', code: 'polst', display: 'POLST' },
		rule: 'Physician Orders for Life-Sustaining Treatment (POLST) on file: follow the form',
		deniesCpr: false,
	},
}

/**
 * FHIR strings and XHTML have no place for control characters (tab and line breaks aside), lone surrogates or
 * non-characters: the bundle (plain JSON) is cleaned of them last.
 */
const UNSAFE = /(?![\t\n\r])[\p{Cc}\p{Cs}\uFFFE\uFFFF]/gu

function safeStrings<T>(value: T): T {
	if (typeof value === 'string') return value.replace(UNSAFE, ' ') as T
	if (Array.isArray(value)) return value.map(safeStrings) as T
	if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeStrings(v)])) as T
	return value
}

const narrative = (html: string) => ({ status: 'generated', div: `<div xmlns="${XHTML}">${html}</div>` })
const para = (text: string) => `<p>${escapeMarkup(text)}</p>`

function table(headings: string[], rows: Array<Array<string | null | undefined>>) {
	const head = `<thead><tr>${headings.map((h) => `<th>${escapeMarkup(h)}</th>`).join('')}</tr></thead>`
	const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeMarkup(cell ?? '')}</td>`).join('')}</tr>`).join('')
	return `<table>${head}<tbody>${body}</tbody></table>`
}

const isDate = (value: string | null): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value)
const present = (value: string | null | undefined): value is string => !!value?.trim()

export function buildIps(profile: IpsProfile, options: IpsOptions = {}): IpsBundle {
	const now = (options.now ?? new Date()).toISOString()
	const uuid = options.uuid ?? (() => crypto.randomUUID())
	const entries: IpsEntry[] = []
	const add = (resourceType: string, body: Json) => {
		const id = uuid()
		const entry = { fullUrl: `urn:uuid:${id}`, resource: { resourceType, id, ...body } }
		entries.push(entry)
		return entry
	}
	const ref = (entry: IpsEntry) => ({ reference: entry.fullUrl })

	const patient = add('Patient', patientOf(profile))
	const subject = ref(patient)
	const author = add('Organization', { name: options.author ?? 'Hit Me Helpers' })

	const allergies = profile.allergies.map((a) =>
		add('AllergyIntolerance', {
			clinicalStatus: {
				coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active', display: 'Active' }],
			},
			criticality: a.severity === 'Severe' ? 'high' : 'low',
			code: { text: a.allergen },
			patient: subject,
			// The severity lives on a reaction: one whose manifestation was not recorded says so (data-absent-reason), so the
			// severity is never lost, even with no reaction written down.
			...((present(a.reaction) || REACTION_SEVERITY[a.severity]) && {
				reaction: [
					{
						manifestation: [present(a.reaction) ? { text: a.reaction } : ABSENT],
						...(REACTION_SEVERITY[a.severity] && { severity: REACTION_SEVERITY[a.severity] }),
					},
				],
			}),
		}),
	)

	const medications = profile.medications.map((m) => {
		const dose = [m.dosage, m.frequency].filter(present).join(', ')
		return add('MedicationStatement', {
			status: 'active',
			medicationCodeableConcept: { text: m.name },
			subject,
			// The IPS requires when it is taken; the app knows only a start date, if that.
			...(isDate(m.startDate)
				? { effectivePeriod: { start: m.startDate } }
				: { _effectiveDateTime: { extension: [{ url: DATA_ABSENT, valueCode: 'unknown' }] } }),
			// The text is the whole instruction; the frequency is also its timing's code, so a reader can tell them apart.
			...(dose && { dosage: [{ text: dose, ...(present(m.frequency) && { timing: { code: { text: m.frequency } } }) }] }),
		})
	})

	const conditions = profile.medicalConditions.map((c) => {
		const status = CONDITION_CLINICAL_STATUS[c.status] ?? 'active'
		const entry = add('Condition', {
			clinicalStatus: {
				coding: [
					{
						system: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
						code: status,
						display: status === 'active' ? 'Active' : 'Resolved',
					},
				],
				// The app's own status (Chronic, Managed…), which the two codes cannot tell apart.
				text: c.status,
			},
			category: [
				{
					coding: [
						{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item', display: 'Problem List Item' },
					],
				},
			],
			code: { text: c.condition },
			subject,
			...(isDate(c.diagnosedDate) && { onsetDateTime: c.diagnosedDate }),
			...(present(c.notes) && { note: [{ text: c.notes }] }),
		})
		return { entry, row: c, status }
	})
	const current = conditions.filter((c) => c.status === 'active')
	const past = conditions.filter((c) => c.status === 'resolved')

	const directive = ADVANCE_DIRECTIVES[profile.dnrStatus ?? '']
	const consent = directive ? add('Consent', consentOf(profile, directive, subject)) : null

	const sections = [
		section(
			IPS_SECTIONS.allergies,
			allergies,
			profile.allergies.length
				? table(
						['Allergen', 'Severity', 'Reaction'],
						profile.allergies.map((a) => [a.allergen, a.severity, a.reaction]),
					)
				: para('No allergies or intolerances recorded.'),
			'unavailable',
		),
		section(
			IPS_SECTIONS.medications,
			medications,
			profile.medications.length
				? table(
						['Medication', 'Dosage', 'Frequency', 'Since'],
						profile.medications.map((m) => [m.name, m.dosage, m.frequency, m.startDate]),
					)
				: para('No medications recorded.'),
			'unavailable',
		),
		section(
			IPS_SECTIONS.problems,
			current.map((c) => c.entry),
			current.length ? conditionTable(current.map((c) => c.row)) : para('No current problems recorded.'),
			'unavailable',
		),
		...(past.length
			? [
					section(
						PAST_ILLNESS_SECTION,
						past.map((c) => c.entry),
						conditionTable(past.map((c) => c.row)),
						'unavailable',
					),
				]
			: []),
		section(
			IPS_SECTIONS.advanceDirectives,
			consent ? [consent] : [],
			directiveText(profile),
			// "None" is the person saying there is no order; anything else is not knowing.
			profile.dnrStatus === 'None' ? 'nilknown' : 'unavailable',
		),
	]

	const compositionId = uuid()
	const composition: IpsEntry = {
		fullUrl: `urn:uuid:${compositionId}`,
		resource: {
			resourceType: 'Composition',
			id: compositionId,
			status: 'final',
			type: { coding: [IPS_DOCUMENT] },
			subject,
			date: now,
			author: [ref(author)],
			title: `International Patient Summary: ${nameOf(profile) ?? 'unnamed'}`,
			confidentiality: 'N',
			section: sections,
		},
	}
	const bundleId = uuid()
	return safeStrings<IpsBundle>({
		resourceType: 'Bundle',
		id: bundleId,
		language: 'en-US',
		identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${bundleId}` },
		type: 'document',
		timestamp: now,
		entry: [composition, ...entries],
	})
}

const REACTION_SEVERITY: Record<string, string> = { Mild: 'mild', Moderate: 'moderate', Severe: 'severe' }

function nameOf(profile: IpsProfile) {
	return profile.fullName?.trim() || [profile.firstName, profile.middleName, profile.lastName].filter(present).join(' ') || null
}

function patientOf(profile: IpsProfile): Json {
	const given = [profile.firstName, profile.middleName].filter(present)
	const text = nameOf(profile)
	const gender = fhirGender(profile.gender)
	const contacts = profile.emergencyContacts.map((c) => ({
		relationship: [
			{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C', display: 'Emergency Contact' }] },
			{ text: c.relationship },
		],
		name: { text: c.name },
		telecom: [{ system: 'phone', value: c.phoneNumber }, ...(present(c.email) ? [{ system: 'email', value: c.email }] : [])],
	}))
	return {
		// The IPS asks for a name with some part present: a profile may have none yet.
		name: [
			text
				? { text, ...(present(profile.lastName) && { family: profile.lastName }), ...(given.length && { given }) }
				: { extension: [{ url: DATA_ABSENT, valueCode: 'unknown' }] },
		],
		...(present(profile.phoneNumber) && { telecom: [{ system: 'phone', value: profile.phoneNumber }] }),
		...(gender && { gender }),
		...(isDate(profile.dateOfBirth)
			? { birthDate: profile.dateOfBirth }
			: { _birthDate: { extension: [{ url: DATA_ABSENT, valueCode: 'unknown' }] } }),
		...(contacts.length && { contact: contacts }),
	}
}

function consentOf(profile: IpsProfile, directive: (typeof ADVANCE_DIRECTIVES)[string], subject: { reference: string }): Json {
	const kept = present(profile.dnrOriginalLocation) ? ` The original is kept: ${profile.dnrOriginalLocation}.` : ''
	return {
		text: narrative(para(`${directive.rule}.${kept}`)),
		status: 'active',
		scope: {
			coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'adr', display: 'Advanced Care Directive' }],
		},
		category: [{ coding: [directive.category] }, { coding: [{ system: LOINC, code: '59284-0', display: 'Patient Consent' }] }],
		patient: subject,
		...(isDate(profile.dnrDocumentDate) && { dateTime: profile.dnrDocumentDate }),
		policyRule: { text: directive.rule },
		...((present(profile.dnrDocumentName) || isDate(profile.dnrDocumentDate)) && {
			sourceAttachment: {
				...(present(profile.dnrDocumentName) && { title: profile.dnrDocumentName }),
				...(isDate(profile.dnrDocumentDate) && { creation: profile.dnrDocumentDate }),
			},
		}),
		...(directive.deniesCpr && {
			provision: {
				type: 'deny',
				code: [{ coding: [{ system: 'http://snomed.info/sct', code: '89666000', display: 'Cardiopulmonary resuscitation' }] }],
			},
		}),
	}
}

function directiveText(profile: IpsProfile) {
	const directive = ADVANCE_DIRECTIVES[profile.dnrStatus ?? '']
	if (!directive)
		return para(profile.dnrStatus === 'None' ? 'No DNR or POLST order: the person has none.' : 'No advance directive recorded.')
	const details = [
		isDate(profile.dnrDocumentDate) ? `Dated ${profile.dnrDocumentDate}.` : null,
		present(profile.dnrOriginalLocation) ? `The original is kept: ${profile.dnrOriginalLocation}.` : null,
	].filter(present)
	return [para(`${directive.rule}.`), ...details.map(para)].join('')
}

function conditionTable(rows: IpsProfile['medicalConditions']) {
	return table(
		['Condition', 'Status', 'Since', 'Notes'],
		rows.map((c) => [c.condition, c.status, c.diagnosedDate, c.notes]),
	)
}

function section(
	kind: { title: string; code: string; display: string },
	entries: IpsEntry[],
	html: string,
	emptyReason: 'nilknown' | 'unavailable',
) {
	const reasons = { nilknown: 'Nil Known', unavailable: 'Unavailable' }
	return {
		title: kind.title,
		code: { coding: [{ system: LOINC, code: kind.code, display: kind.display }] },
		text: narrative(html),
		...(entries.length
			? { entry: entries.map((e) => ({ reference: e.fullUrl })) }
			: { emptyReason: { coding: [{ system: EMPTY_REASON, code: emptyReason, display: reasons[emptyReason] }] } }),
	}
}
