import { expect, test } from 'vitest'
import { profileLabel } from './profile-label.ts'
import { BLOOD_TYPE, DNR_STATUS, GENDER, listGender, PLAN_TYPE, POLICY_RELATIONSHIP, readProfile, RELATIONSHIP } from './vocabularies.ts'

test("every spelling spec 001 uses is read as the stored value; anything else is not the vocabulary's", () => {
	expect(['male', 'Male', ' MALE ', 'non-binary', 'Prefer not to say'].map(GENDER.read)).toEqual([
		'Male',
		'Male',
		'Male',
		'Non-binary',
		'Prefer not to say',
	])
	expect(
		['o+', 'AB-', 'dnr', 'No DNR', 'POLST on File', 'ppo', 'Other', 'Self', 'Yourself'].map((v, i) =>
			[BLOOD_TYPE, BLOOD_TYPE, DNR_STATUS, DNR_STATUS, DNR_STATUS, PLAN_TYPE, POLICY_RELATIONSHIP, POLICY_RELATIONSHIP, RELATIONSHIP][
				i
			]!.read(v),
		),
	).toEqual(['O+', 'AB-', 'DNR', 'None', 'POLST', 'PPO', 'other', 'self', 'self'])
	expect([GENDER.read('Agender'), BLOOD_TYPE.read('Z+'), GENDER.read(null), GENDER.read(3)]).toEqual([
		undefined,
		undefined,
		undefined,
		undefined,
	])
})

test('the profile list spells gender in lower case; a value outside the vocabulary is answered as stored', () => {
	expect([listGender('Male'), listGender('non-binary'), listGender('Agender'), listGender(null)]).toEqual([
		'male',
		'non-binary',
		'Agender',
		null,
	])
})

test('a profile and its rows are read through their vocabularies, leaving unknown values as they are', () => {
	const read = readProfile({
		gender: 'female',
		bloodType: 'Mystery',
		dnrStatus: null,
		allergies: [{ severity: 'severe' }],
		medicalConditions: [{ status: 'under treatment' }],
		insurancePolicies: [{ relationship: 'Spouse', planType: 'HDHP' }],
	})
	expect(read).toEqual({
		gender: 'Female',
		bloodType: 'Mystery',
		dnrStatus: null,
		allergies: [{ severity: 'Severe' }],
		medicalConditions: [{ status: 'Under Treatment' }],
		insurancePolicies: [{ relationship: 'spouse', planType: 'HDHP' }],
	})
})

test('a profile is named with its relationship label, in any spelling', () => {
	expect(profileLabel({ id: 1, fullName: 'Ada', relationshipToUser: 'self' })).toBe('Ada (Yourself)')
	expect(profileLabel({ id: 1, fullName: 'Ada', relationshipToUser: 'Child' })).toBe('Ada (Child)')
	expect(profileLabel({ id: 1, fullName: 'Ada', relationshipToUser: 'cousin' })).toBe('Ada (Family)')
	expect(profileLabel({ id: 7, fullName: null, relationshipToUser: 'self' })).toBe('Profile 7')
})
