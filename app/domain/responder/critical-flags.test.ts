import { expect, test } from 'vitest'
import { criticalFlags } from './critical-flags.ts'

const none = { medications: [], allergies: [], conditions: [] }

test('anticoagulants and antiplatelets by generic or brand name', () => {
	for (const name of ['Warfarin', 'Eliquis 5mg', 'rivaroxaban', 'Dabigatran etexilate', 'Heparin', 'Clopidogrel (Plavix)'])
		expect(criticalFlags({ ...none, medications: [{ name }] })).toEqual([{ kind: 'anticoagulant', detail: name }])
	expect(criticalFlags({ ...none, medications: [{ name: 'Aspirin' }, { name: 'Metformin' }] })).toEqual([])
})

test('insulin, severe allergies, current seizure disorders and implanted devices', () => {
	const flags = criticalFlags({
		medications: [{ name: 'Insulin glargine (Lantus)' }],
		allergies: [
			{ allergen: 'Penicillin', severity: 'Severe' },
			{ allergen: 'Dust', severity: 'Mild' },
		],
		conditions: [
			{ condition: 'Epilepsy', status: 'Chronic' },
			{ condition: 'Febrile seizures', status: 'Resolved' },
			{ condition: 'Heart block', status: 'Managed', notes: 'Pacemaker fitted 2021' },
		],
	})
	expect(flags).toEqual([
		{ kind: 'insulin', detail: 'Insulin glargine (Lantus)' },
		{ kind: 'severe-allergy', detail: 'Penicillin' },
		{ kind: 'seizures', detail: 'Epilepsy' },
		{ kind: 'implant', detail: 'Heart block' },
	])
})

test('an implant mentioned only in the notes is still flagged; words inside other words are not', () => {
	expect(criticalFlags({ ...none, additionalNotes: 'Has an ICD, do not use AED pads over it' })).toEqual([
		{ kind: 'implant', detail: 'icd' },
	])
	expect(criticalFlags({ ...none, conditions: [{ condition: 'Acidosis', status: 'Active' }] })).toEqual([])
})
