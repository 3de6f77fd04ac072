import { describe, expect, test } from 'vitest'
import { fhirErrors, ipsProblems, sectionResources } from '#tests/fhir.ts'
import { buildIps, fhirGender, IPS_SECTIONS, PAST_ILLNESS_SECTION, type IpsProfile } from './ips.ts'

const EMPTY: IpsProfile = {
	fullName: null,
	firstName: null,
	middleName: null,
	lastName: null,
	dateOfBirth: null,
	gender: null,
	phoneNumber: null,
	dnrStatus: null,
	dnrDocumentName: null,
	dnrDocumentDate: null,
	dnrOriginalLocation: null,
	emergencyContacts: [],
	allergies: [],
	medications: [],
	medicalConditions: [],
}

const FULL: IpsProfile = {
	fullName: 'Maria <b>Santos</b>',
	firstName: 'Maria',
	middleName: 'Luisa',
	lastName: 'Santos',
	dateOfBirth: '1950-06-15',
	gender: 'Female',
	phoneNumber: '+1 555 0100',
	dnrStatus: 'DNR',
	dnrDocumentName: 'dnr-order.pdf',
	dnrDocumentDate: '2024-02-01',
	dnrOriginalLocation: 'On the refrigerator & in the car',
	emergencyContacts: [
		{ name: 'Luis Santos', relationship: 'Son', phoneNumber: '+1 (555) 010-0200', email: 'luis@example.org' },
		{ name: 'Ana', relationship: 'Neighbour', phoneNumber: '555 0300', email: null },
	],
	allergies: [
		{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' },
		{ allergen: 'Latex', severity: 'Moderate', reaction: null },
		{ allergen: 'Dust', severity: 'Mild', reaction: 'Sneezing' },
	],
	medications: [
		{ name: 'Warfarin', dosage: '5 mg', frequency: 'daily', startDate: '2020-03-01' },
		{ name: 'Insulin glargine', dosage: null, frequency: null, startDate: null },
	],
	medicalConditions: [
		{ condition: 'Atrial fibrillation', status: 'Chronic', diagnosedDate: '2019-05-02', notes: 'On anticoagulants' },
		{ condition: 'Type 1 diabetes', status: 'Under Treatment', diagnosedDate: null, notes: null },
		{ condition: 'Hypertension', status: 'Managed', diagnosedDate: null, notes: null },
		{ condition: 'Seizure disorder', status: 'Active', diagnosedDate: null, notes: null },
		{ condition: 'Broken wrist', status: 'Resolved', diagnosedDate: '2010-01-01', notes: null },
	],
}

const at = new Date('2026-11-24T10:30:00Z')
const of = <T>(resource: unknown) => resource as T

describe('the International Patient Summary of a profile', () => {
	test('a full profile: valid R4, every IPS section with its LOINC code, every reference inside the bundle', () => {
		const bundle = buildIps(FULL, { now: at, author: 'Hit Me Helpers Foundation' })
		expect(ipsProblems(bundle)).toEqual([])
		expect(bundle).toMatchObject({ type: 'document', timestamp: '2026-11-24T10:30:00.000Z' })
		expect(bundle.identifier.value).toBe(`urn:uuid:${bundle.id}`)
		const composition = of<Record<string, unknown>>(bundle.entry[0]!.resource)
		expect(composition).toMatchObject({
			resourceType: 'Composition',
			status: 'final',
			type: { coding: [{ system: 'http://loinc.org', code: '60591-5', display: 'Patient summary Document' }] },
			date: '2026-11-24T10:30:00.000Z',
			confidentiality: 'N',
			title: 'International Patient Summary: Maria <b>Santos</b>',
		})
		const codes = of<{ section: Array<{ code: { coding: Array<{ code: string }> } }> }>(composition).section.map(
			(s) => s.code.coding[0]!.code,
		)
		expect(codes).toEqual(['48765-2', '10160-0', '11450-4', '11348-0', '42348-3'])
		const author = bundle.entry.find((e) => e.fullUrl === of<{ author: Array<{ reference: string }> }>(composition).author[0]!.reference)
		expect(author?.resource).toMatchObject({ resourceType: 'Organization', name: 'Hit Me Helpers Foundation' })
	})

	test('the Patient: name parts, birth date, FHIR gender, phone, emergency contacts with relationship and telecom', () => {
		const bundle = buildIps(FULL, { now: at })
		const patient = bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource
		expect(patient).toMatchObject({
			name: [{ text: 'Maria <b>Santos</b>', family: 'Santos', given: ['Maria', 'Luisa'] }],
			birthDate: '1950-06-15',
			gender: 'female',
			telecom: [{ system: 'phone', value: '+1 555 0100' }],
			contact: [
				{
					relationship: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C' }] }, { text: 'Son' }],
					name: { text: 'Luis Santos' },
					telecom: [
						{ system: 'phone', value: '+1 (555) 010-0200' },
						{ system: 'email', value: 'luis@example.org' },
					],
				},
				{ relationship: [{}, { text: 'Neighbour' }], telecom: [{ system: 'phone', value: '555 0300' }] },
			],
		})
		expect(of<{ contact: Array<{ telecom: unknown[] }> }>(patient).contact[1]!.telecom).toHaveLength(1)
	})

	test("genders map to FHIR's codes", () => {
		expect(['Male', 'Female', 'Other', 'Prefer not to say', 'male', 'female', 'non-binary', 'other', null].map(fhirGender)).toEqual([
			'male',
			'female',
			'other',
			'unknown',
			'male',
			'female',
			'other',
			'other',
			undefined,
		])
	})

	test('allergies: the allergen as text, criticality high only when severe, the reaction as manifestation', () => {
		const allergies = sectionResources(buildIps(FULL, { now: at }), IPS_SECTIONS.allergies.code)
		expect(allergies).toMatchObject([
			{
				resourceType: 'AllergyIntolerance',
				code: { text: 'Penicillin' },
				criticality: 'high',
				reaction: [{ manifestation: [{ text: 'Anaphylaxis' }], severity: 'severe' }],
			},
			// No reaction written down: the severity still goes, on a reaction whose manifestation is marked as not recorded.
			{
				code: { text: 'Latex' },
				criticality: 'low',
				reaction: [
					{
						manifestation: [{ extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] }],
						severity: 'moderate',
					},
				],
			},
			{ code: { text: 'Dust' }, criticality: 'low', reaction: [{ manifestation: [{ text: 'Sneezing' }], severity: 'mild' }] },
		])
		for (const allergy of allergies)
			expect(allergy).toMatchObject({
				clinicalStatus: { coding: [{ code: 'active' }] },
				patient: { reference: expect.stringMatching(/^urn:uuid:/) },
			})
	})

	test('medications: active statements with the name as text, the dosage as text, and when taken (or why unknown)', () => {
		const medications = sectionResources(buildIps(FULL, { now: at }), IPS_SECTIONS.medications.code)
		expect(medications).toMatchObject([
			{
				resourceType: 'MedicationStatement',
				status: 'active',
				medicationCodeableConcept: { text: 'Warfarin' },
				dosage: [{ text: '5 mg, daily', timing: { code: { text: 'daily' } } }],
				effectivePeriod: { start: '2020-03-01' },
			},
			{
				status: 'active',
				medicationCodeableConcept: { text: 'Insulin glargine' },
				_effectiveDateTime: { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] },
			},
		])
		expect(medications[1]).not.toHaveProperty('dosage')
	})

	test('conditions: Active, Chronic, Managed and Under Treatment are active problems; Resolved goes to past illness', () => {
		const bundle = buildIps(FULL, { now: at })
		const status = (c: unknown) => of<{ clinicalStatus: { coding: Array<{ code: string }> } }>(c).clinicalStatus.coding[0]!.code
		const problems = sectionResources(bundle, IPS_SECTIONS.problems.code)
		expect(problems.map((c) => of<{ code: { text: string } }>(c).code.text)).toEqual([
			'Atrial fibrillation',
			'Type 1 diabetes',
			'Hypertension',
			'Seizure disorder',
		])
		expect(problems.map(status)).toEqual(['active', 'active', 'active', 'active'])
		// The app's own status goes as the text beside the code.
		expect(problems.map((c) => of<{ clinicalStatus: { text: string } }>(c).clinicalStatus.text)).toEqual([
			'Chronic',
			'Under Treatment',
			'Managed',
			'Active',
		])
		expect(problems[0]).toMatchObject({ onsetDateTime: '2019-05-02', note: [{ text: 'On anticoagulants' }] })
		const past = sectionResources(bundle, PAST_ILLNESS_SECTION.code)
		expect(past).toMatchObject([{ resourceType: 'Condition', code: { text: 'Broken wrist' } }])
		expect(past.map(status)).toEqual(['resolved'])
	})

	test('a DNR is an advance-directive Consent that denies resuscitation; POLST is one too, without the denial', () => {
		const dnr = sectionResources(buildIps(FULL, { now: at }), IPS_SECTIONS.advanceDirectives.code)
		expect(dnr).toMatchObject([
			{
				resourceType: 'Consent',
				status: 'active',
				scope: { coding: [{ code: 'adr' }] },
				category: [{ coding: [{ code: 'dnr' }] }, {}],
				dateTime: '2024-02-01',
				sourceAttachment: { title: 'dnr-order.pdf', creation: '2024-02-01' },
				provision: { type: 'deny', code: [{ coding: [{ system: 'http://snomed.info/sct', code: '89666000' }] }] },
			},
		])
		expect(of<{ text: { div: string } }>(dnr[0]).text.div).toContain('The original is kept: On the refrigerator &amp; in the car.')
		const polstBundle = buildIps({ ...FULL, dnrStatus: 'POLST', dnrDocumentName: null, dnrDocumentDate: null }, { now: at })
		expect(ipsProblems(polstBundle)).toEqual([])
		const polst = sectionResources(polstBundle, IPS_SECTIONS.advanceDirectives.code)
		expect(polst).toMatchObject([{ resourceType: 'Consent', category: [{ coding: [{ code: 'polst' }] }, {}] }])
		expect(polst[0]).not.toHaveProperty('provision')
		expect(polst[0]).not.toHaveProperty('sourceAttachment')
	})

	test('an empty profile: still valid, the four sections each with a narrative and an empty reason', () => {
		const bundle = buildIps(EMPTY, { now: at })
		expect(ipsProblems(bundle)).toEqual([])
		const sections = of<{
			section: Array<{ code: { coding: Array<{ code: string }> }; emptyReason?: { coding: Array<{ code: string }> }; entry?: unknown }>
		}>(bundle.entry[0]!.resource).section
		expect(sections.map((s) => [s.code.coding[0]!.code, s.emptyReason?.coding[0]!.code, s.entry])).toEqual([
			['48765-2', 'unavailable', undefined],
			['10160-0', 'unavailable', undefined],
			['11450-4', 'unavailable', undefined],
			['42348-3', 'unavailable', undefined],
		])
		// Only the Patient and the author: no resource stands for nothing.
		expect(bundle.entry.map((e) => e.resource.resourceType)).toEqual(['Composition', 'Patient', 'Organization'])
		const patient = bundle.entry[1]!.resource
		expect(patient).toMatchObject({ _birthDate: { extension: [{ valueCode: 'unknown' }] } })
		expect(patient).not.toHaveProperty('gender')
	})

	test('"None" recorded for DNR reads as nothing to list (nilknown), not as unknown', () => {
		const bundle = buildIps({ ...EMPTY, fullName: 'Sam', dnrStatus: 'None' }, { now: at })
		expect(ipsProblems(bundle)).toEqual([])
		const directives = of<{ section: Array<{ title: string; emptyReason?: { coding: Array<{ code: string }> }; text: { div: string } }> }>(
			bundle.entry[0]!.resource,
		).section.find((s) => s.title === 'Advance Directives')!
		expect(directives.emptyReason?.coding[0]?.code).toBe('nilknown')
		expect(directives.text.div).toContain('No DNR or POLST order')
	})

	test('narratives escape what the person typed', () => {
		const bundle = buildIps(
			{ ...FULL, allergies: [{ allergen: '<script>alert(1)</script>', severity: 'Severe', reaction: '"a" & \'b\'' }] },
			{ now: at },
		)
		const div = of<{ section: Array<{ text: { div: string } }> }>(bundle.entry[0]!.resource).section[0]!.text.div
		expect(div).not.toContain('<script>')
		expect(div).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
		expect(div).toContain('&quot;a&quot; &amp; &#39;b&#39;')
		const bell = buildIps({ ...EMPTY, fullName: 'Bell\u0007 Ringer' }, { now: at })
		expect(JSON.stringify(bell)).not.toContain('\\u0007')
		expect(bell.entry[1]!.resource).toMatchObject({ name: [{ text: 'Bell  Ringer' }] })
		expect(ipsProblems(bundle)).toEqual([])
	})

	test('the checks can fail: a broken bundle is reported', () => {
		const bundle = buildIps(FULL, { now: at })
		const broken = structuredClone(bundle)
		broken.entry.splice(2, 1)
		;(broken.entry[1]!.resource as Record<string, unknown>).gender = 'female'
		;(broken.entry[1]!.resource as Record<string, unknown>).birthDate = 'June 15th'
		const composition = broken.entry[0]!.resource as unknown as { section: unknown[] }
		composition.section.pop()
		const problems = ipsProblems(broken)
		expect(problems.some((p) => p.includes('does not resolve'))).toBe(true)
		expect(problems.some((p) => p.includes('no Advance Directives section'))).toBe(true)
		expect(problems.some((p) => p.startsWith('Patient'))).toBe(true)
		expect(fhirErrors({ resourceType: 'Condition', subject: { reference: 'x' }, wrong: 1 } as never)).not.toEqual([])
	})
})
