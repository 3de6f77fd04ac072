import { expect } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import { json } from './api.ts'
import { claimant, createCode, createUser, sessionCookie } from './factories.ts'

/** A new account holding one family member's profile, made by claiming a fresh sticker through the JSON API. */
export async function claimedProfile(fullName: string) {
	const user = await createUser()
	const cookie = await sessionCookie(user.id)
	const sticker = await createCode()
	const created = await json(
		profileApi.action,
		'POST',
		'/api/medical-profile',
		{ fullName, relationshipToUser: 'child', pin: sticker.pin },
		cookie,
	)
	expect(created.status).toBe(201)
	return { user, cookie, sticker, profileId: created.body.id as number }
}

/** A person with a complete profile and a claimed sticker linked to it. */
export async function fullProfile() {
	const user = await createUser()
	const [profile] = await db
		.insert(s.medicalProfiles)
		.values({
			userId: user.id,
			fullName: 'Maria Santos',
			dateOfBirth: '1950-06-15',
			bloodType: 'AB-',
			height: '5 ft 4 in',
			weight: '140 lb',
			distinguishingMarks: 'Scar on left knee',
			dnrStatus: 'DNR',
			dnrDocumentKey: `users/${user.id}/document/dnr.pdf`,
			dnrDocumentName: 'dnr.pdf',
			dnrDocumentDate: '2024-02-01',
			dnrOriginalLocation: 'On the refrigerator',
			additionalNotes: 'Hard of hearing <speak up>',
			confirmedAt: new Date('2026-11-01T12:00:00Z'),
		})
		.returning()
	const pid = profile!.id
	await db.insert(s.allergies).values({ medicalProfileId: pid, allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' })
	await db.insert(s.medications).values({ medicalProfileId: pid, name: 'Warfarin', dosage: '5 mg', frequency: 'daily' })
	await db.insert(s.medicalConditions).values({ medicalProfileId: pid, condition: 'Atrial fibrillation', status: 'Chronic' })
	await db
		.insert(s.emergencyContacts)
		.values({ medicalProfileId: pid, name: 'Luis Santos', relationship: 'Son', phoneNumber: '+1 (555) 010-0200' })
	await db.insert(s.insurancePolicies).values({ medicalProfileId: pid, provider: 'Medicare', policyNumber: '1EG4-TE5-MK73' })
	const code = await createCode()
	await claimCode(claimant(user.id), code.pin, { profileId: pid })
	return { user, profile: profile!, code }
}
