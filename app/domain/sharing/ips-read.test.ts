import { describe, expect, test } from 'vitest'
import { DomainError } from '#app/utils/errors.ts'
import { buildIps, type IpsProfile } from './ips.ts'
import { parseSummaryJson, readBundle, SUMMARY_MAX_BYTES, SUMMARY_MESSAGES, type Summary } from './ips-read.ts'

const PROFILE: IpsProfile = {
	fullName: 'Maria Santos',
	firstName: 'Maria',
	middleName: null,
	lastName: 'Santos',
	dateOfBirth: '1950-06-15',
	gender: 'Female',
	phoneNumber: null,
	dnrStatus: 'None',
	dnrDocumentName: null,
	dnrDocumentDate: null,
	dnrOriginalLocation: null,
	emergencyContacts: [],
	allergies: [
		{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' },
		{ allergen: 'Latex', severity: 'Moderate', reaction: null },
		{ allergen: 'Dust', severity: 'Mild', reaction: 'Sneezing, itchy eyes' },
	],
	medications: [
		{ name: 'Warfarin', dosage: '5 mg', frequency: 'daily', startDate: '2020-03-01' },
		{ name: 'Insulin glargine', dosage: null, frequency: 'at night', startDate: null },
		{ name: 'Aspirin', dosage: '81 mg, chewable', frequency: null, startDate: null },
		{ name: 'Vitamin D', dosage: null, frequency: null, startDate: null },
	],
	medicalConditions: [
		{ condition: 'Atrial fibrillation', status: 'Chronic', diagnosedDate: '2019-05-02', notes: 'On anticoagulants' },
		{ condition: 'Type 1 diabetes', status: 'Under Treatment', diagnosedDate: null, notes: null },
		{ condition: 'Hypertension', status: 'Managed', diagnosedDate: null, notes: null },
		{ condition: 'Seizure disorder', status: 'Active', diagnosedDate: null, notes: null },
		{ condition: 'Broken wrist', status: 'Resolved', diagnosedDate: '2010-01-01', notes: null },
	],
}

/** The refusal `run` throws: its status, message and field. */
function refusal(run: () => unknown) {
	try {
		run()
	} catch (error) {
		if (error instanceof DomainError) return { status: error.status, message: error.message, field: error.field }
		throw error
	}
	throw new Error('not refused')
}

const read = (value: unknown) => readBundle(value, 'bundle')
const bundleOf = (...resources: Array<Record<string, unknown>>) => ({
	resourceType: 'Bundle',
	type: 'collection',
	entry: resources.map((resource, i) => ({ fullUrl: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, resource })),
})
const items = ({ allergies, medications, conditions, dnrStatus }: Summary) => ({
	allergies: allergies.map(({ text, severity, reaction }) => ({ allergen: text, severity, reaction })),
	medications: medications.map(({ text, dosage, frequency, startDate }) => ({ name: text, dosage, frequency, startDate })),
	conditions: conditions.map(({ text, status, diagnosedDate, notes }) => ({ condition: text, status, diagnosedDate, notes })),
	dnrStatus,
})

describe('reading a health summary', () => {
	test("the app's own summary reads back as the profile it was made from", () => {
		const summary = read(JSON.parse(JSON.stringify(buildIps(PROFILE))))
		expect(items(summary)).toEqual({
			allergies: PROFILE.allergies,
			medications: PROFILE.medications,
			conditions: PROFILE.medicalConditions,
			dnrStatus: 'None',
		})
	})

	test('DNR and POLST come from the advance-directive Consent; an unknown status gives none', () => {
		expect(read(buildIps({ ...PROFILE, dnrStatus: 'DNR' })).dnrStatus).toBe('DNR')
		expect(read(buildIps({ ...PROFILE, dnrStatus: 'POLST' })).dnrStatus).toBe('POLST')
		expect(read(buildIps({ ...PROFILE, dnrStatus: 'Unknown' })).dnrStatus).toBeNull()
		expect(read(buildIps({ ...PROFILE, dnrStatus: null })).dnrStatus).toBeNull()
	})

	test('the cut-down summary a review form carries reads back the same', () => {
		const summary = read(buildIps(PROFILE))
		const again = read(JSON.parse(JSON.stringify(summary.reduced)))
		expect(items(again)).toEqual(items(summary))
		// Narratives, the patient and everything else not read stay behind.
		const text = JSON.stringify(summary.reduced)
		expect(text).not.toContain('Maria')
		expect(text).not.toContain('<div')
	})

	test("another system's IPS: codings, a Medication by reference, reaction severities, statuses not current left out", () => {
		const summary = read(
			bundleOf(
				{ resourceType: 'Patient', name: [{ text: 'Somebody Else' }] },
				{
					resourceType: 'AllergyIntolerance',
					code: { coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }] },
					reaction: [
						{ severity: 'mild', manifestation: [{ text: 'Rash' }] },
						{ severity: 'severe', manifestation: [{ text: 'Hives' }] },
					],
				},
				{ resourceType: 'AllergyIntolerance', code: { text: 'Peanuts' }, criticality: 'high' },
				{ resourceType: 'AllergyIntolerance', code: { text: 'Cats' }, clinicalStatus: { coding: [{ code: 'resolved' }] } },
				{ resourceType: 'AllergyIntolerance', code: { text: 'Shellfish' }, verificationStatus: { coding: [{ code: 'refuted' }] } },
				{
					resourceType: 'Medication',
					id: 'm1',
					code: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '197361', display: 'Amlodipine 5 MG' }] },
				},
				{
					resourceType: 'MedicationStatement',
					status: 'active',
					medicationReference: { reference: 'Medication/m1' },
					effectiveDateTime: '2021-04-05T08:00:00Z',
					dosage: [{ text: 'One tablet every morning' }],
				},
				{ resourceType: 'MedicationStatement', status: 'stopped', medicationCodeableConcept: { text: 'Ibuprofen' } },
				{ resourceType: 'MedicationRequest', status: 'active', medicationCodeableConcept: { text: 'Metformin' }, authoredOn: '2022-02' },
				{ resourceType: 'Condition', code: { text: 'Asthma' }, clinicalStatus: { coding: [{ code: 'remission' }] }, onsetDateTime: '1999' },
				{ resourceType: 'Condition', code: { text: 'Flu' }, verificationStatus: { coding: [{ code: 'entered-in-error' }] } },
				{
					resourceType: 'Consent',
					status: 'active',
					provision: { type: 'deny', code: [{ coding: [{ system: 'http://snomed.info/sct', code: '89666000' }] }] },
				},
			),
		)
		expect(items(summary)).toEqual({
			allergies: [
				{ allergen: 'Allergy to penicillin', severity: 'Severe', reaction: 'Rash, Hives' },
				{ allergen: 'Peanuts', severity: 'Severe', reaction: null },
			],
			medications: [
				{ name: 'Amlodipine 5 MG', dosage: 'One tablet every morning', frequency: null, startDate: '2021-04-05' },
				{ name: 'Metformin', dosage: null, frequency: null, startDate: null },
			],
			conditions: [{ condition: 'Asthma', status: 'Resolved', diagnosedDate: null, notes: null }],
			dnrStatus: 'DNR',
		})
		expect(summary.allergies[0]!.codes).toEqual(['http://snomed.info/sct|91936005'])
	})

	test('an allergy without a severity is read as such (the review says why it cannot be added as it is)', () => {
		const summary = read(bundleOf({ resourceType: 'AllergyIntolerance', code: { text: 'Bees' }, criticality: 'low' }))
		expect(summary.allergies[0]).toMatchObject({ text: 'Bees', severity: null })
	})
})

describe('a broken or hostile summary is a 400 with words, never a crash', () => {
	test('not JSON, too large, too deep, prototype keys', () => {
		expect(refusal(() => parseSummaryJson('{"resourceType": "Bundle"', 'bundle'))).toEqual({
			status: 400,
			message: SUMMARY_MESSAGES.notJson,
			field: 'bundle',
		})
		expect(refusal(() => parseSummaryJson(' '.repeat(SUMMARY_MAX_BYTES + 1), 'bundle'))).toMatchObject({
			status: 413,
			message: 'This health summary is too large: the limit is 1 MB.',
		})
		// Characters count as their bytes: 400,000 euro signs are 1.2 MB.
		expect(refusal(() => parseSummaryJson(`"${'€'.repeat(400_000)}"`, 'bundle')).status).toBe(413)
		const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
		expect(refusal(() => parseSummaryJson(deep, 'bundle')).message).toBe(SUMMARY_MESSAGES.tooDeep)
		// Brackets inside strings are text, not nesting.
		expect(parseSummaryJson(JSON.stringify({ a: '['.repeat(1000) }), 'bundle')).toEqual({ a: '['.repeat(1000) })
		for (const key of ['__proto__', 'constructor', 'prototype'])
			expect(
				refusal(() => parseSummaryJson(`{"resourceType":"Bundle","entry":[{"resource":{"${key}":{"polluted":true}}}]}`, 'file')),
			).toEqual({
				status: 400,
				message: SUMMARY_MESSAGES.forbiddenKey(key),
				field: 'file',
			})
		expect(({} as Record<string, unknown>).polluted).toBeUndefined()
		expect(parseSummaryJson('{"a":"x\\u0000y"}', 'bundle')).toEqual({ a: 'xy' })
	})

	test.each([
		['an array', [], SUMMARY_MESSAGES.notBundle],
		['a string', 'Bundle', SUMMARY_MESSAGES.notBundle],
		['null', null, SUMMARY_MESSAGES.notBundle],
		['another resource', { resourceType: 'Patient' }, SUMMARY_MESSAGES.notBundle],
		['an empty Bundle', { resourceType: 'Bundle' }, SUMMARY_MESSAGES.noContent],
		['a Bundle of patients', bundleOf({ resourceType: 'Patient' }, { resourceType: 'Observation', status: 5 }), SUMMARY_MESSAGES.noContent],
		['entry not a list', { resourceType: 'Bundle', entry: {} }, /at entry: expected an array/],
		['an entry without a resource', { resourceType: 'Bundle', entry: [{}] }, /at entry\[0\]\.resource: expected an object/],
		[
			'a resourceType not text',
			{ resourceType: 'Bundle', entry: [{ resource: { resourceType: 7 } }] },
			/entry\[0\]\.resource\.resourceType: expected text/,
		],
		[
			'a code that is a number',
			bundleOf({ resourceType: 'AllergyIntolerance', code: 5 }),
			/entry\[0\]\.resource\.code: expected an object/,
		],
		['text that is an object', bundleOf({ resourceType: 'Condition', code: { text: { a: 1 } } }), /code\.text: expected text/],
		[
			'too many entries',
			{ resourceType: 'Bundle', entry: Array.from({ length: 1001 }, () => ({ resource: { resourceType: 'Patient' } })) },
			/a list longer than 1000 items/,
		],
		[
			'too many codings',
			bundleOf({ resourceType: 'Condition', code: { coding: Array.from({ length: 51 }, () => ({ code: 'x' })) } }),
			/a list longer than 50 items/,
		],
		['a huge text', bundleOf({ resourceType: 'Condition', code: { text: 'x'.repeat(10_001) } }), /a text longer than 10000 characters/],
	])('%s', (_what, value, message) => {
		const refused = refusal(() => read(value))
		expect(refused.status).toBe(400)
		expect(refused.field).toBe('bundle')
		if (typeof message === 'string') expect(refused.message).toBe(message)
		else expect(refused.message).toMatch(message)
	})
})
