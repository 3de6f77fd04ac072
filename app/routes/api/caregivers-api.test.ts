import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { messagesTo } from '#app/adapters/mail.server.ts'
import { acceptInvitation } from '#app/domain/profiles/caregivers.server.ts'
import { CAREGIVER_MESSAGES } from '#app/domain/profiles/caregiver-schemas.ts'
import * as allergiesApi from '#app/routes/api/allergies.ts'
import * as caregiversApi from '#app/routes/api/caregivers.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as profilesApi from '#app/routes/api/medical-profiles.ts'
import { get, json } from '#tests/api.ts'
import { createUser, sessionCookie, uniqueEmail } from '#tests/factories.ts'
import { fullProfile } from '#tests/profiles.ts'

async function owner() {
	const { user, profile } = await fullProfile()
	return { user, profile, cookie: await sessionCookie(user.id), path: `/api/medical-profiles/${profile.id}/caregivers` }
}

async function tokenFor(email: string) {
	const [mail] = await db
		.select()
		.from(s.emails)
		.where(and(messagesTo(email), eq(s.emails.emailType, 'caregiver-invitation')))
	return /\/invitations\/([\w-]+)/.exec(mail!.textBody)![1]!
}

describe('/api/medical-profiles/{id}/caregivers', () => {
	test('POST {email, role} invites, GET lists, DELETE revokes; the caregiver then finds the profile gone', async () => {
		const o = await owner()
		const params = { id: String(o.profile.id) }
		const caregiver = await createUser()
		const invited = await json(caregiversApi.action, 'POST', o.path, { email: caregiver.email, role: 'editor' }, o.cookie, params)
		expect(invited.status).toBe(201)
		expect(invited.body).toMatchObject({ email: caregiver.email.toLowerCase(), role: 'editor', status: 'pending', name: null })
		expect(invited.headers.get('cache-control')).toBe('private, no-store')

		const listed = await get(caregiversApi.loader, o.path, o.cookie, params)
		expect(listed.status).toBe(200)
		expect(listed.body).toEqual([expect.objectContaining({ id: invited.body.id, status: 'pending' })])

		await acceptInvitation(await tokenFor(caregiver.email), caregiver.id)
		const cookie = await sessionCookie(caregiver.id)
		const profiles = await get(profilesApi.loader, '/api/medical-profiles', cookie)
		expect(profiles.body).toEqual([
			expect.objectContaining({ id: o.profile.id, access: 'editor', sharedBy: 'Test', caregiverId: invited.body.id }),
		])
		const read = await get(profileApi.loader, `/api/medical-profile/${o.profile.id}`, cookie, params)
		expect(read.status).toBe(200)
		expect(read.body.fullName).toBe('Maria Santos')
		const added = await json(
			allergiesApi.action,
			'POST',
			'/api/allergies',
			{ medicalProfileId: o.profile.id, allergen: 'Latex', severity: 'Mild' },
			cookie,
		)
		expect(added.status).toBe(201)
		// The list is the owner's.
		expect((await get(caregiversApi.loader, o.path, cookie, params)).status).toBe(403)

		const revoked = await json(caregiversApi.action, 'DELETE', `${o.path}/${invited.body.id}`, undefined, o.cookie, {
			...params,
			caregiverId: String(invited.body.id),
		})
		expect(revoked.status).toBe(200)
		expect(revoked.body).toEqual({ success: true, id: invited.body.id, outcome: 'revoked' })
		expect((await get(profileApi.loader, `/api/medical-profile/${o.profile.id}`, cookie, params)).status).toBe(404)
		expect((await get(profilesApi.loader, '/api/medical-profiles', cookie)).body).toEqual([])
	})

	test('a caregiver leaves with DELETE of their own caregiverId', async () => {
		const o = await owner()
		const params = { id: String(o.profile.id) }
		const caregiver = await createUser()
		const invited = await json(caregiversApi.action, 'POST', o.path, { email: caregiver.email, role: 'viewer' }, o.cookie, params)
		await acceptInvitation(await tokenFor(caregiver.email), caregiver.id)
		const cookie = await sessionCookie(caregiver.id)
		const added = await json(
			allergiesApi.action,
			'POST',
			'/api/allergies',
			{ medicalProfileId: o.profile.id, allergen: 'Dust', severity: 'Mild' },
			cookie,
		)
		expect(added.status).toBe(403)
		const left = await json(caregiversApi.action, 'DELETE', `${o.path}/${invited.body.id}`, undefined, cookie, {
			...params,
			caregiverId: String(invited.body.id),
		})
		expect(left.body).toMatchObject({ outcome: 'left' })
		expect((await get(profileApi.loader, `/api/medical-profile/${o.profile.id}`, cookie, params)).status).toBe(404)
	})

	test('refusals name their field: a bad address or role, oneself, twice; strangers find no profile', async () => {
		const o = await owner()
		const params = { id: String(o.profile.id) }
		const post = (body: unknown, cookie = o.cookie) => json(caregiversApi.action, 'POST', o.path, body, cookie, params)
		const bad = await post({ email: 'not-an-address', role: 'boss' })
		expect(bad.status).toBe(400)
		expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['email', 'role'])
		expect((await post({ email: o.user.email, role: 'viewer' })).body).toMatchObject({
			message: CAREGIVER_MESSAGES.yourself,
			errors: { email: [CAREGIVER_MESSAGES.yourself] },
		})
		const email = uniqueEmail('twice')
		expect((await post({ email, role: 'viewer' })).status).toBe(201)
		const twice = await post({ email, role: 'editor' })
		expect(twice.status).toBe(409)
		expect(twice.body.message).toBe(CAREGIVER_MESSAGES.alreadyInvited)

		const stranger = await sessionCookie((await createUser()).id)
		expect((await post({ email: uniqueEmail(), role: 'viewer' }, stranger)).status).toBe(404)
		expect((await get(caregiversApi.loader, o.path, stranger, params)).status).toBe(404)
		expect((await get(caregiversApi.loader, o.path, undefined, params)).status).toBe(401)
	})
})
