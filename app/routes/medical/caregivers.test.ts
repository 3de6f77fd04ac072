import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { messagesTo } from '#app/adapters/mail.server.ts'
import { acceptInvitation } from '#app/domain/profiles/caregivers.server.ts'
import * as medicalInfo from '#app/routes/medical/medical-info.tsx'
import { call, createUser, formRequest, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import { fullProfile } from '#tests/profiles.ts'

async function post(cookie: string, fields: Record<string, string>) {
	const { result } = await call(medicalInfo.action, formRequest('/medical-info', fields, { cookie }))
	return unwrap(result)
}

async function screen(cookie: string, query = '') {
	const { result } = await call(medicalInfo.loader, getRequest(`/medical-info${query}`, cookie))
	return (result as Awaited<ReturnType<typeof medicalInfo.loader>>).screen
}

describe('the Caregivers card and a shared profile on Medical Information', () => {
	test('the owner invites with the form; the caregiver sees the profile marked as shared, and leaves it', async () => {
		const { user: owner, profile } = await fullProfile()
		const ownerCookie = await sessionCookie(owner.id)
		const caregiver = await createUser()
		const cookie = await sessionCookie(caregiver.id)

		const wrong = await post(ownerCookie, { intent: 'invite-caregiver', profileId: String(profile.id), email: 'nope', role: 'viewer' })
		expect(wrong.status).toBe(400)
		const invited = await post(ownerCookie, {
			intent: 'invite-caregiver',
			profileId: String(profile.id),
			email: caregiver.email,
			role: 'viewer',
		})
		expect(invited.status).toBe(302)
		await expect(invited).toSendToast({ title: 'Invitation Sent' })
		expect((await screen(ownerCookie)).caregivers).toEqual([expect.objectContaining({ email: caregiver.email.toLowerCase() })])

		const [mail] = await db
			.select()
			.from(s.emails)
			.where(and(messagesTo(caregiver.email), eq(s.emails.emailType, 'caregiver-invitation')))
		await acceptInvitation(/\/invitations\/([\w-]+)/.exec(mail!.textBody)![1]!, caregiver.id)

		const shared = await screen(cookie)
		expect(shared).toMatchObject({ role: 'viewer', refused: false, caregivers: null, scans: null })
		expect(shared.profile?.fullName).toBe('Maria Santos')
		expect(shared.profiles).toEqual([expect.objectContaining({ id: profile.id, role: 'viewer', sharedBy: 'Test' })])
		const refused = await post(cookie, { intent: 'save-notes', profileId: String(profile.id), additionalNotes: 'Mine now' })
		expect(refused.status).toBe(403)

		const caregiverId = shared.profiles[0]!.caregiverId!
		const left = await post(cookie, { intent: 'leave-profile', profileId: String(profile.id), id: String(caregiverId) })
		expect(left.status).toBe(302)
		await expect(left).toSendToast({ title: 'Left', description: 'You no longer help keep this profile.' })
		const after = await screen(cookie, `?profile=${profile.id}`)
		expect(after).toMatchObject({ refused: true, profile: null, profiles: [] })
	})
})
