import { expect } from 'vitest'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import { json } from './api.ts'
import { createCode, createUser, sessionCookie } from './factories.ts'

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
