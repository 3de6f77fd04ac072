import { describe, expect, test } from 'vitest'
import { DomainError } from '#app/utils/errors.ts'
import { chooseItems, IMPORT_MESSAGES, MAX_ACCEPTED, nameKey, proposeImport, toImportView, type HeldProfile } from './import-proposal.ts'
import { buildIps, type IpsProfile } from './ips.ts'
import { readBundle } from './ips-read.ts'

const SOURCE: IpsProfile = {
	fullName: 'Ada',
	firstName: 'Ada',
	middleName: null,
	lastName: null,
	dateOfBirth: null,
	gender: null,
	phoneNumber: null,
	dnrStatus: 'None',
	dnrDocumentName: null,
	dnrDocumentDate: null,
	dnrOriginalLocation: null,
	emergencyContacts: [],
	allergies: [
		{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' },
		{ allergen: 'Tree Nuts', severity: 'Moderate', reaction: null },
	],
	medications: [{ name: 'Warfarin', dosage: '5 mg', frequency: 'daily', startDate: '2020-03-01' }],
	medicalConditions: [{ condition: 'Atrial fibrillation', status: 'Chronic', diagnosedDate: null, notes: null }],
}

const EMPTY: HeldProfile = { dnrStatus: null, dnrDocumentKey: null, allergies: [], medications: [], medicalConditions: [] }

const proposalOf = (source: IpsProfile, held: HeldProfile = EMPTY) => proposeImport(readBundle(buildIps(source), 'bundle'), held)

function refusal(run: () => unknown) {
	try {
		run()
	} catch (error) {
		if (error instanceof DomainError) return { status: error.status, message: error.message, field: error.field }
		throw error
	}
	throw new Error('not refused')
}

describe('what a summary would add, beside what the profile holds', () => {
	test('into an empty profile: every item new and ticked, the DNR status too', () => {
		const view = toImportView(proposalOf(SOURCE))
		expect(view.allergies).toEqual([
			{
				id: expect.stringMatching(/^allergy-\w+$/),
				allergen: 'Penicillin',
				severity: 'Severe',
				reaction: 'Anaphylaxis',
				duplicate: false,
				problem: null,
				selected: true,
			},
			{
				id: expect.stringMatching(/^allergy-\w+$/),
				allergen: 'Tree Nuts',
				severity: 'Moderate',
				reaction: null,
				duplicate: false,
				problem: null,
				selected: true,
			},
		])
		expect(view.medications).toMatchObject([
			{ name: 'Warfarin', dosage: '5 mg', frequency: 'daily', startDate: '2020-03-01', selected: true },
		])
		expect(view.conditions).toMatchObject([{ condition: 'Atrial fibrillation', status: 'Chronic', selected: true }])
		expect(view.dnrStatus).toEqual({ id: 'dnr-None', proposed: 'None', current: null, duplicate: false, problem: null, selected: true })
		expect(view.current).toEqual({ allergies: [], medications: [], conditions: [], dnrStatus: null })
		// The values to write stay inside.
		expect(JSON.stringify(view)).not.toContain('values')
	})

	test('ids are the same for the same summary made again (new UUIDs, a new time), and differ when an item changed', () => {
		const ids = (source: IpsProfile) => {
			const p = proposalOf(source)
			return [...p.allergies, ...p.medications, ...p.conditions].map((i) => i.id)
		}
		expect(ids(SOURCE)).toEqual(ids(SOURCE))
		expect(new Set(ids(SOURCE)).size).toBe(4)
		const changed = ids({ ...SOURCE, allergies: [{ ...SOURCE.allergies[0]!, reaction: 'Hives' }, SOURCE.allergies[1]!] })
		expect(changed[0]).not.toBe(ids(SOURCE)[0])
		expect(changed.slice(1)).toEqual(ids(SOURCE).slice(1))
	})

	test('duplicates by name, whatever the case and spaces: unticked, said to be in the profile', () => {
		expect(nameKey('  Tree\tNUTS ')).toBe(nameKey('treenuts'))
		const held: HeldProfile = {
			...EMPTY,
			dnrStatus: 'None',
			allergies: [{ allergen: 'treenuts', severity: 'Mild', reaction: null }],
			medications: [{ name: 'WARFARIN', dosage: null, frequency: null, startDate: null }],
			medicalConditions: [{ condition: 'Atrial  Fibrillation', status: 'Active', diagnosedDate: null, notes: null }],
		}
		const view = toImportView(proposalOf(SOURCE, held))
		expect(view.allergies.map((a) => [a.allergen, a.duplicate, a.selected])).toEqual([
			['Penicillin', false, true],
			['Tree Nuts', true, false],
		])
		expect(view.medications.map((m) => [m.duplicate, m.selected])).toEqual([[true, false]])
		expect(view.conditions.map((c) => [c.duplicate, c.selected])).toEqual([[true, false]])
		expect(view.dnrStatus).toMatchObject({ proposed: 'None', current: 'None', duplicate: true, selected: false })
		expect(view.current.allergies).toEqual([{ allergen: 'treenuts', severity: 'Mild', reaction: null }])
	})

	test('the same thing twice in one summary, by code or by name, is proposed once', () => {
		const coded = (text: string) => ({
			resourceType: 'AllergyIntolerance',
			criticality: 'high',
			code: { text, coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }] },
		})
		const bundle = {
			resourceType: 'Bundle',
			entry: [coded('Penicillin'), coded('PCN'), { ...coded('penicillin '), code: { text: 'penicillin ' } }].map((resource) => ({
				resource,
			})),
		}
		expect(proposeImport(readBundle(bundle, 'bundle'), EMPTY).allergies.map((a) => a.allergen)).toEqual(['Penicillin'])
	})

	test("an item past the profile's limits, or with no name or severity, is shown with why and left unticked", () => {
		const view = toImportView(
			proposalOf({
				...SOURCE,
				allergies: [{ allergen: 'A'.repeat(121), severity: 'Mild', reaction: null }],
				medications: [{ name: 'Later', dosage: null, frequency: null, startDate: '2999-01-01' }],
				medicalConditions: [{ condition: 'Long notes', status: 'Active', diagnosedDate: null, notes: 'n'.repeat(1001) }],
			}),
		)
		expect(view.allergies).toMatchObject([
			{ allergen: 'A'.repeat(121), problem: 'Allergen: Please use at most 120 characters', selected: false },
		])
		expect(view.medications).toMatchObject([{ problem: 'Start date: The date cannot be in the future', selected: false }])
		expect(view.conditions).toMatchObject([{ problem: 'Notes: Please use at most 1000 characters', selected: false }])
		const bare = proposeImport(
			readBundle(
				{
					resourceType: 'Bundle',
					entry: [
						{ resource: { resourceType: 'AllergyIntolerance', code: { text: 'Bees' } } },
						{ resource: { resourceType: 'Condition', code: { coding: [{ system: 'http://snomed.info/sct', code: '38341003' }] } } },
					],
				},
				'bundle',
			),
			EMPTY,
		)
		expect(bare.allergies[0]!.problem).toBe('The summary gives no severity for this allergy: add it by hand with its severity.')
		expect(bare.conditions[0]!.problem).toBe(
			'The summary gives this condition no name, only the code http://snomed.info/sct|38341003: add it by hand.',
		)
	})

	test('DNR or POLST need the document on file; one that would replace another status is left unticked', () => {
		expect(proposalOf({ ...SOURCE, dnrStatus: 'DNR' }).dnrStatus).toEqual({
			id: 'dnr-DNR',
			proposed: 'DNR',
			current: null,
			duplicate: false,
			problem: IMPORT_MESSAGES.needsDocument('Do Not Resuscitate'),
			selected: false,
		})
		const withDocument = { ...EMPTY, dnrStatus: 'POLST', dnrDocumentKey: 'users/u/document/polst.pdf' }
		expect(proposalOf({ ...SOURCE, dnrStatus: 'DNR' }, withDocument).dnrStatus).toMatchObject({
			current: 'POLST',
			problem: null,
			selected: false,
		})
		expect(proposalOf(SOURCE, { ...EMPTY, dnrStatus: 'Unknown' }).dnrStatus).toMatchObject({ current: 'Unknown', selected: true })
		// An older spelling of the status held reads as the status.
		expect(proposalOf(SOURCE, { ...EMPTY, dnrStatus: 'No DNR' }).dnrStatus).toMatchObject({ current: 'None', duplicate: true })
	})
})

describe('choosing what to add', () => {
	test('the values of the chosen items, as the profile’s forms would take them', () => {
		const proposal = proposalOf(SOURCE)
		const chosen = chooseItems(proposal, [proposal.allergies[1]!.id, proposal.conditions[0]!.id, 'dnr-None', proposal.allergies[1]!.id])
		expect(chosen).toEqual({
			allergies: [{ allergen: 'Tree Nuts', severity: 'Moderate', reaction: undefined }],
			medications: [],
			conditions: [{ condition: 'Atrial fibrillation', status: 'Chronic', diagnosedDate: undefined, notes: undefined }],
			dnrStatus: 'None',
		})
		// A status the profile already has changes nothing.
		const same = proposalOf(SOURCE, { ...EMPTY, dnrStatus: 'None' })
		expect(chooseItems(same, ['dnr-None']).dnrStatus).toBeNull()
	})

	test('none, too many, an item no longer in the summary, an item that cannot be added: refused with words', () => {
		const proposal = proposalOf({
			...SOURCE,
			dnrStatus: 'DNR',
			allergies: [{ allergen: 'B'.repeat(200), severity: 'Mild', reaction: null }],
		})
		expect(refusal(() => chooseItems(proposal, []))).toEqual({ status: 400, message: IMPORT_MESSAGES.noneChosen, field: 'accept' })
		const many = Array.from({ length: MAX_ACCEPTED + 1 }, (_, i) => `allergy-${i}`)
		expect(refusal(() => chooseItems(proposal, many))).toEqual({ status: 400, message: IMPORT_MESSAGES.tooMany, field: 'accept' })
		expect(refusal(() => chooseItems(proposal, ['allergy-nope']))).toEqual({
			status: 409,
			message: IMPORT_MESSAGES.changed,
			field: 'accept',
		})
		expect(refusal(() => chooseItems(proposal, [proposal.allergies[0]!.id])).message).toBe(
			`“${'B'.repeat(60)}…” cannot be added: Allergen: Please use at most 120 characters`,
		)
		expect(refusal(() => chooseItems(proposal, ['dnr-DNR'])).message).toBe(
			`The DNR status cannot be added: ${IMPORT_MESSAGES.needsDocument('Do Not Resuscitate')}`,
		)
	})
})
