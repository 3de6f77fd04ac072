import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { messagesTo } from '#app/adapters/mail.server.ts'
import { deleteAccount } from '#app/domain/accounts/accounts.server.ts'
import { profileAccess } from '#app/domain/profiles/access.server.ts'
import { accountAudit } from '#app/domain/profiles/audit.server.ts'
import { CAREGIVER_MESSAGES, MAX_CAREGIVERS } from '#app/domain/profiles/caregiver-schemas.ts'
import {
	acceptInvitation,
	endCaregiver,
	findInvitation,
	inviteCaregiver,
	listCaregivers,
	listSharedProfiles,
} from '#app/domain/profiles/caregivers.server.ts'
import { addDocument } from '#app/domain/profiles/files.server.ts'
import { deleteProfile, getProfileDetail, updateProfileFields } from '#app/domain/profiles/profiles.server.ts'
import { addRow, deleteRow, listRows } from '#app/domain/profiles/sections.server.ts'
import { AllergySchema } from '#app/domain/profiles/schemas.ts'
import { profileScanHistory, scanHistory } from '#app/domain/qr/manage.server.ts'
import { recordScan } from '#app/domain/responder/responder.server.ts'
import { newResponderKey, reportHelping } from '#app/domain/responder/helping.server.ts'
import { createUser, SAMPLE_FILES, uniqueEmail } from '#tests/factories.ts'
import { fullProfile } from '#tests/profiles.ts'

/** The token in the last invitation e-mailed to `email` (the message is the only place it is written down). */
async function invitationToken(email: string) {
	const [mail] = await db
		.select()
		.from(s.emails)
		.where(and(messagesTo(email), eq(s.emails.emailType, 'caregiver-invitation')))
		.orderBy(s.emails.id)
		.limit(1)
	const token = /\/invitations\/([\w-]+)/.exec(mail!.textBody)?.[1]
	if (!token) throw new Error('no invitation link in the message')
	return { token, mail: mail! }
}

/** A profile with a code, shared with a new account as `role` through the e-mailed link. */
async function shared(role: 'editor' | 'viewer') {
	const { user: owner, profile, code } = await fullProfile()
	const caregiver = await createUser({ firstName: 'Carla', lastName: 'Giver' })
	const invited = await inviteCaregiver(owner.id, profile.id, { email: caregiver.email.toUpperCase(), role })
	const { token } = await invitationToken(caregiver.email)
	await acceptInvitation(token, caregiver.id)
	return { owner, profile, code, caregiver, caregiverId: invited.id, token }
}

const refusal = (promise: Promise<unknown>) =>
	promise.then(
		() => null,
		(error: { status?: number; message: string; field?: string }) => ({ status: error.status, message: error.message, field: error.field }),
	)

describe('caregivers', () => {
	test('an invitation is e-mailed as a single-use link valid 7 days; accepting it shares the profile and confirms the address', async () => {
		const { user: owner, profile } = await fullProfile()
		const caregiver = await createUser({ emailVerifiedAt: null })
		const invited = await inviteCaregiver(owner.id, profile.id, { email: caregiver.email, role: 'editor' })
		expect(invited).toMatchObject({ email: caregiver.email.toLowerCase(), role: 'editor', status: 'pending' })
		const days = (Date.parse(invited.expiresAt) - Date.now()) / 86_400_000
		expect(days).toBeGreaterThan(6.9)
		expect(days).toBeLessThanOrEqual(7)

		const { token, mail } = await invitationToken(caregiver.email)
		expect(mail.subject).toBe('You are invited to help keep a medical profile')
		expect(mail.textBody).toContain('Maria Santos')
		// Only the token's hash is kept.
		const [row] = await db.select().from(s.profileCaregivers).where(eq(s.profileCaregivers.id, invited.id))
		expect(row!.tokenHash).not.toContain(token)
		expect(await findInvitation(token)).toMatchObject({ state: 'open', role: 'editor', profileName: 'Maria Santos' })

		expect(await listSharedProfiles(caregiver.id)).toEqual([])
		const accepted = await acceptInvitation(token, caregiver.id)
		expect(accepted).toMatchObject({ profileId: profile.id, role: 'editor' })
		const [user] = await db.select().from(s.users).where(eq(s.users.id, caregiver.id))
		expect(user!.emailVerifiedAt).not.toBeNull()
		expect(await listSharedProfiles(caregiver.id)).toEqual([
			expect.objectContaining({ id: profile.id, role: 'editor', caregiverId: invited.id, sharedBy: 'Test' }),
		])
		expect(await listCaregivers(owner.id, profile.id)).toEqual([
			expect.objectContaining({ id: invited.id, status: 'active', name: 'Test User' }),
		])

		// The link works once.
		expect(await findInvitation(token)).toEqual({ state: 'accepted' })
		expect(await refusal(acceptInvitation(token, caregiver.id))).toEqual({
			status: 409,
			message: CAREGIVER_MESSAGES.accepted,
			field: undefined,
		})
	})

	test('an editor reads and changes the medical sections; every read and change names them in the owner’s record', async () => {
		const { owner, profile, caregiver } = await shared('editor')
		expect((await profileAccess(caregiver.id, profile.id, 'edit')).role).toBe('editor')
		expect((await getProfileDetail(caregiver.id, profile.id, 'read'))?.fullName).toBe('Maria Santos')
		const allergy = await addRow(caregiver.id, 'allergies', profile.id, AllergySchema.parse({ allergen: 'Latex', severity: 'Mild' }))
		await updateProfileFields(caregiver.id, profile.id, { additionalNotes: 'Changed by the caregiver' })
		const document = await addDocument(caregiver.id, profile.id, SAMPLE_FILES.pdf())
		// The file is the owner's: it stays with the profile whatever becomes of the caregiver's account.
		expect(document.storageKey.startsWith(`users/${owner.id}/`)).toBe(true)
		await deleteRow(caregiver.id, 'allergies', allergy.id)

		const { entries } = await accountAudit(owner.id)
		const byCaregiver = entries.filter((e) => e.actorRole === 'caregiver')
		expect(byCaregiver.map((e) => [e.kind, e.action])).toEqual(
			expect.arrayContaining([
				['change', 'caregiver-joined'],
				['read', 'caregiver-read'],
				['change', 'allergies-added'],
				['change', 'profile-updated'],
				['change', 'documents-added'],
				['change', 'allergies-removed'],
			]),
		)
		for (const entry of byCaregiver) expect(entry).toMatchObject({ actorName: 'Carla Giver', actorEmail: caregiver.email })
		// Owner-only: the profile's settings, deleting it, sharing it.
		expect(await refusal(updateProfileFields(caregiver.id, profile.id, { isScannable: false }))).toMatchObject({ status: 403 })
		expect(await refusal(deleteProfile(caregiver.id, profile.id))).toMatchObject({ status: 403 })
		expect(await refusal(listCaregivers(caregiver.id, profile.id))).toMatchObject({ status: 403 })
		expect(await refusal(inviteCaregiver(caregiver.id, profile.id, { email: uniqueEmail(), role: 'viewer' }))).toMatchObject({
			status: 403,
		})
	})

	test('an editor sees the profile’s scan history; a viewer reads only; both are e-mailed when a code is scanned', async () => {
		const editor = await shared('editor')
		const viewer = await createUser()
		await inviteCaregiver(editor.owner.id, editor.profile.id, { email: viewer.email, role: 'viewer' })
		await acceptInvitation((await invitationToken(viewer.email)).token, viewer.id)
		const [code] = await db.select().from(s.qrCodes).where(eq(s.qrCodes.token, editor.code.token))
		await recordScan(code!.id, { userAgent: 'Mozilla/5.0 (iPhone)', address: '198.51.100.7', trustedHeaders: null, viewerIsOwner: false })

		expect(await profileScanHistory(editor.caregiver.id, editor.profile.id)).toHaveLength(1)
		expect(await scanHistory(editor.caregiver.id, code!.id)).toHaveLength(1)
		expect(await refusal(profileScanHistory(viewer.id, editor.profile.id))).toMatchObject({ status: 403 })
		expect(await refusal(scanHistory(viewer.id, code!.id))).toMatchObject({ status: 404 })

		expect(await listRows(viewer.id, 'allergies', editor.profile.id)).toHaveLength(1)
		const edit = addRow(viewer.id, 'allergies', editor.profile.id, AllergySchema.parse({ allergen: 'Dust', severity: 'Mild' }))
		expect(await refusal(edit)).toMatchObject({ status: 403 })

		for (const person of [editor.caregiver, viewer]) {
			const alerts = await db
				.select()
				.from(s.emails)
				.where(and(messagesTo(person.email), eq(s.emails.emailType, 'scan-alert')))
			expect(alerts).toHaveLength(1)
			expect(alerts[0]!.textBody).toContain('which Test shares with you, was scanned')
		}
	})

	test('"I\'m helping" alerts go to the caregivers too, saying why they get them; not to a revoked one', async () => {
		const { owner, profile, code, caregiver, caregiverId } = await shared('viewer')
		const gone = await createUser()
		const invited = await inviteCaregiver(owner.id, profile.id, { email: gone.email, role: 'editor' })
		await acceptInvitation((await invitationToken(gone.email)).token, gone.id)
		await endCaregiver(owner.id, profile.id, invited.id)
		expect(caregiverId).toBeGreaterThan(0)
		const sent = await reportHelping(
			code.token,
			newResponderKey(),
			{ where: 'Main Street', hospital: "St. Mary's" },
			{
				userAgent: 'Mozilla/5.0',
				address: '198.51.100.44',
			},
		)
		expect(sent.recipients).toBe(2)
		const alerts = (person: { email: string }) =>
			db
				.select()
				.from(s.emails)
				.where(and(messagesTo(person.email), eq(s.emails.emailType, 'helping-alert')))
		const [alert] = await alerts(caregiver)
		expect(alert!.textBody).toContain("because you help keep Maria Santos's profile, which its owner shares with you")
		expect(await alerts(gone)).toEqual([])
		expect(await alerts(owner)).toHaveLength(1)
	})

	test('revoking and leaving end access at once; a caregiver may leave but not remove another', async () => {
		const { owner, profile, caregiver, caregiverId } = await shared('editor')
		const other = await createUser()
		const invited = await inviteCaregiver(owner.id, profile.id, { email: other.email, role: 'viewer' })
		expect(await refusal(endCaregiver(caregiver.id, profile.id, invited.id))).toMatchObject({
			status: 403,
			message: CAREGIVER_MESSAGES.ownerRevokes,
		})
		// A pending invitation revoked: its link says so.
		const { token } = await invitationToken(other.email)
		expect(await endCaregiver(owner.id, profile.id, invited.id)).toEqual({ outcome: 'revoked' })
		expect(await findInvitation(token)).toEqual({ state: 'withdrawn' })
		expect(await refusal(acceptInvitation(token, other.id))).toMatchObject({ status: 409, message: CAREGIVER_MESSAGES.withdrawn })

		expect(await endCaregiver(owner.id, profile.id, caregiverId)).toEqual({ outcome: 'revoked' })
		expect(await refusal(profileAccess(caregiver.id, profile.id, 'read'))).toMatchObject({ status: 404 })
		expect(await getProfileDetail(caregiver.id, profile.id, 'read')).toBeNull()
		expect(await listSharedProfiles(caregiver.id)).toEqual([])
		expect(await refusal(endCaregiver(owner.id, profile.id, caregiverId))).toMatchObject({ status: 404 })

		const again = await shared('viewer')
		expect(await endCaregiver(again.caregiver.id, again.profile.id, again.caregiverId)).toEqual({ outcome: 'left' })
		expect(await refusal(profileAccess(again.caregiver.id, again.profile.id, 'read'))).toMatchObject({ status: 404 })
		const actions = (await accountAudit(again.owner.id)).entries.map((e) => e.action)
		expect(actions).toContain('caregiver-left')
	})

	test('refused invitations: one’s own address, someone invited or helping already, more than the limit', async () => {
		const { owner, profile, caregiver } = await shared('viewer')
		const invite = (email: string) => refusal(inviteCaregiver(owner.id, profile.id, { email, role: 'editor' }))
		expect(await invite(owner.email)).toEqual({ status: 400, message: CAREGIVER_MESSAGES.yourself, field: 'email' })
		expect(await invite(caregiver.email)).toEqual({ status: 409, message: CAREGIVER_MESSAGES.alreadyHelping, field: 'email' })
		const waiting = uniqueEmail('waiting')
		expect(await invite(waiting)).toBeNull()
		expect(await invite(waiting.toUpperCase())).toEqual({ status: 409, message: CAREGIVER_MESSAGES.alreadyInvited, field: 'email' })
		for (let i = 2; i < MAX_CAREGIVERS; i++) expect(await invite(uniqueEmail('more'))).toBeNull()
		expect(await listCaregivers(owner.id, profile.id)).toHaveLength(MAX_CAREGIVERS)
		expect(await invite(uniqueEmail('one-too-many'))).toEqual({ status: 400, message: CAREGIVER_MESSAGES.full, field: 'email' })
	})

	test('invitations made at the same moment are counted one after the other: never more than the limit', async () => {
		const { user: owner, profile } = await fullProfile()
		for (let i = 0; i < MAX_CAREGIVERS - 1; i++) await inviteCaregiver(owner.id, profile.id, { email: uniqueEmail(), role: 'viewer' })
		const raced = await Promise.allSettled(
			[1, 2, 3].map(() => inviteCaregiver(owner.id, profile.id, { email: uniqueEmail(), role: 'viewer' })),
		)
		expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
		expect(await listCaregivers(owner.id, profile.id)).toHaveLength(MAX_CAREGIVERS)
	})

	test('the link is refused to another account, when expired, for a deleted profile, and when unknown', async () => {
		const { user: owner, profile } = await fullProfile()
		const invitedEmail = uniqueEmail('invited')
		await inviteCaregiver(owner.id, profile.id, { email: invitedEmail, role: 'viewer' })
		const { token } = await invitationToken(invitedEmail)
		const stranger = await createUser()
		expect(await refusal(acceptInvitation(token, stranger.id))).toMatchObject({
			status: 403,
			message: CAREGIVER_MESSAGES.otherAccount(invitedEmail),
		})
		expect(await refusal(acceptInvitation(token, owner.id))).toMatchObject({ status: 403 })

		await db
			.update(s.profileCaregivers)
			.set({ expiresAt: new Date(Date.now() - 1000) })
			.where(eq(s.profileCaregivers.medicalProfileId, profile.id))
		expect(await findInvitation(token)).toEqual({ state: 'expired' })
		const invited = await createUser({ email: invitedEmail })
		expect(await refusal(acceptInvitation(token, invited.id))).toMatchObject({ status: 409, message: CAREGIVER_MESSAGES.expired })
		// Expired, it no longer stands in the way of a new invitation.
		await inviteCaregiver(owner.id, profile.id, { email: invitedEmail, role: 'viewer' })

		const family = await fullProfile()
		const other = await db
			.insert(s.medicalProfiles)
			.values({ userId: family.user.id, fullName: 'Second', relationshipToUser: 'child' })
			.returning()
		const late = uniqueEmail('late')
		await inviteCaregiver(family.user.id, other[0]!.id, { email: late, role: 'editor' })
		const lateToken = (await invitationToken(late)).token
		await deleteProfile(family.user.id, other[0]!.id)
		expect(await findInvitation(lateToken)).toEqual({ state: 'profile-deleted' })
		expect(await refusal(acceptInvitation(lateToken, (await createUser({ email: late })).id))).toMatchObject({
			status: 404,
			message: CAREGIVER_MESSAGES.profileDeleted,
		})
		expect(await findInvitation('not-a-token')).toEqual({ state: 'unknown' })
	})

	test('deleting either account ends the sharing', async () => {
		const first = await shared('editor')
		await deleteAccount(first.caregiver.id)
		expect(await db.select().from(s.profileCaregivers).where(eq(s.profileCaregivers.id, first.caregiverId))).toEqual([])
		expect(await listCaregivers(first.owner.id, first.profile.id)).toEqual([])

		const second = await shared('viewer')
		const waiting = uniqueEmail('waiting')
		await inviteCaregiver(second.owner.id, second.profile.id, { email: waiting, role: 'viewer' })
		const { token } = await invitationToken(waiting)
		await deleteAccount(second.owner.id)
		expect(await db.select().from(s.profileCaregivers).where(eq(s.profileCaregivers.ownerUserId, second.owner.id))).toEqual([])
		expect(await listSharedProfiles(second.caregiver.id)).toEqual([])
		expect(await findInvitation(token)).toEqual({ state: 'unknown' })
	})
})
