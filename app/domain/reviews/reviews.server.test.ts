import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import * as scan from '#app/routes/scan/scan.ts'
import { call, createUser, getRequest } from '#tests/factories.ts'
import { claimedProfile, fullProfile } from '#tests/profiles.ts'
import { confirmStillCorrect, confirmWithReviewLink, dueReviews, reviewLinkState, sendDueReviewReminders } from './reviews.server.ts'

const DAY = 86_400_000
const ago = (days: number, from = new Date()) => new Date(from.getTime() - days * DAY)

async function confirmedDaysAgo(profileId: number, days: number, reviewIntervalMonths = 6) {
	await db
		.update(s.medicalProfiles)
		.set({ confirmedAt: ago(days), reviewIntervalMonths })
		.where(eq(s.medicalProfiles.id, profileId))
}

const remindersTo = (userId: string) =>
	db
		.select()
		.from(s.emails)
		.where(and(eq(s.emails.userId, userId), eq(s.emails.emailType, 'review-reminder')))
		.orderBy(desc(s.emails.id))

/** The token of the "Still correct" link in a reminder. */
const tokenIn = (text: string) => /\/review\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? ''

async function responderFooter(token: string) {
	const response = (await call(scan.loader, getRequest(`/scan/${token}`), { token })).result as Response
	return /Information last confirmed by its owner on ([^<]+)\./.exec(await response.text())?.[1]
}

describe('review reminders', () => {
	test('a profile past its interval gets one reminder listing what the responder page shows, with a "Still correct" and an "Update" link', async () => {
		const { user, profile } = await fullProfile()
		await confirmedDaysAgo(profile.id, 190)
		await sendDueReviewReminders()
		const [mail] = await remindersTo(user.id)
		expect(mail).toMatchObject({
			toAddress: user.email,
			subject: "Is Maria Santos's emergency information still correct?",
			status: 'pending',
		})
		for (const fact of [
			'Code status: DNR: Do Not Resuscitate (Signed 2024-02-01, Original kept: On the refrigerator)',
			'Critical: Anticoagulant / blood thinner: Warfarin; Severe allergy: Penicillin',
			'Allergies: Penicillin (Severe): Anaphylaxis',
			'Medications: Warfarin, 5 mg, daily',
			'Emergency contacts: Luis Santos (Son): +1 (555) 010-0200',
			'Blood type: AB-',
			`http://localhost:3000/medical-info?profile=${profile.id}`,
		])
			expect(mail!.textBody).toContain(fact)
		expect(tokenIn(mail!.textBody)).not.toBe('')
		// One reminder per due date, however often the job runs.
		await sendDueReviewReminders()
		expect(await remindersTo(user.id)).toHaveLength(1)
	})

	test('not before the interval the owner chose; a shorter interval comes due sooner', async () => {
		const { user, profile } = await fullProfile()
		await confirmedDaysAgo(profile.id, 150)
		await sendDueReviewReminders()
		expect(await remindersTo(user.id)).toHaveLength(0)
		await confirmedDaysAgo(profile.id, 40, 1)
		await sendDueReviewReminders()
		expect(await remindersTo(user.id)).toHaveLength(1)
	})

	test('a code showing a profile with nothing recorded gets a gentle nudge once, two days on; without a code it waits for the review', async () => {
		const { user, profileId } = await claimedProfile('Empty Person')
		await db
			.update(s.medicalProfiles)
			.set({ confirmedAt: ago(1) })
			.where(eq(s.medicalProfiles.id, profileId))
		await sendDueReviewReminders()
		expect(await remindersTo(user.id)).toHaveLength(0)
		await db
			.update(s.medicalProfiles)
			.set({ confirmedAt: ago(3) })
			.where(eq(s.medicalProfiles.id, profileId))
		await sendDueReviewReminders()
		const [nudge] = await remindersTo(user.id)
		expect(nudge!.subject).toBe('Add what responders should know about Empty Person')
		expect(nudge!.textBody).toContain('no allergies, medications, medical conditions or emergency contacts are recorded')
		await sendDueReviewReminders()
		expect(await remindersTo(user.id)).toHaveLength(1)

		const loner = await createUser()
		const [bare] = await db
			.insert(s.medicalProfiles)
			.values({ userId: loner.id, fullName: 'No Code', confirmedAt: ago(10) })
			.returning()
		await sendDueReviewReminders()
		expect(await remindersTo(loner.id)).toHaveLength(0)
		await db
			.update(s.medicalProfiles)
			.set({ confirmedAt: ago(200) })
			.where(eq(s.medicalProfiles.id, bare!.id))
		await sendDueReviewReminders()
		expect(await remindersTo(loner.id)).toHaveLength(1)
	})

	test('two instances running the job at once send one reminder', async () => {
		const { user, profile } = await fullProfile()
		await confirmedDaysAgo(profile.id, 200)
		await Promise.all([sendDueReviewReminders(), sendDueReviewReminders(), sendDueReviewReminders()])
		expect(await remindersTo(user.id)).toHaveLength(1)
		expect(await db.$count(s.reviewLinks, eq(s.reviewLinks.medicalProfileId, profile.id))).toBe(1)
	})
})

describe('the "Still correct" link', () => {
	test('confirms once, without signing in: the responder page shows the new date, the access record says so, the next reminder waits a whole interval', async () => {
		const { user, profile, code } = await fullProfile()
		await confirmedDaysAgo(profile.id, 200)
		await sendDueReviewReminders()
		const token = tokenIn((await remindersTo(user.id))[0]!.textBody)
		expect(await reviewLinkState(token)).toMatchObject({ state: 'valid', profileName: 'Maria Santos' })
		const before = await responderFooter(code.token)

		const at = new Date()
		const clicks = await Promise.all([confirmWithReviewLink(token, at), confirmWithReviewLink(token, at)])
		expect(clicks.map((c) => c.state).sort()).toEqual(['confirmed', 'used'])
		const after = await responderFooter(code.token)
		expect(after).not.toBe(before)
		expect(after).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(at))
		expect(await reviewLinkState(token)).toMatchObject({ state: 'used' })
		const [record] = await db
			.select()
			.from(s.profileAudit)
			.where(and(eq(s.profileAudit.profileId, profile.id), eq(s.profileAudit.action, 'review-confirmed')))
		expect(record).toMatchObject({ kind: 'change', actorRole: 'owner', detail: 'reminder link' })

		await sendDueReviewReminders()
		expect(await remindersTo(user.id)).toHaveLength(1)
		await sendDueReviewReminders(new Date(Date.now() + 185 * DAY))
		expect(await remindersTo(user.id)).toHaveLength(2)
	})

	test('an expired link confirms nothing; an unknown or malformed one is unknown', async () => {
		const { user, profile } = await fullProfile()
		await confirmedDaysAgo(profile.id, 200)
		await sendDueReviewReminders()
		const token = tokenIn((await remindersTo(user.id))[0]!.textBody)
		const later = new Date(Date.now() + 31 * DAY)
		expect(await confirmWithReviewLink(token, later)).toMatchObject({ state: 'expired', profileName: 'Maria Santos' })
		const row = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })
		expect(row!.confirmedAt!.getTime()).toBeLessThan(ago(100).getTime())
		expect(await confirmWithReviewLink('A'.repeat(43))).toEqual({ state: 'unknown' })
		expect(await reviewLinkState('../../etc')).toEqual({ state: 'unknown' })
	})
})

describe('on the dashboard', () => {
	test('due profiles are listed until confirmed; only their owner can confirm them', async () => {
		const { user, profile } = await fullProfile()
		expect(await dueReviews(user.id)).toEqual([])
		await confirmedDaysAgo(profile.id, 200)
		expect(await dueReviews(user.id)).toEqual([{ id: profile.id, fullName: 'Maria Santos', confirmedOn: expect.any(Date) }])
		const stranger = await createUser()
		await expect(confirmStillCorrect(stranger.id, profile.id)).rejects.toBeInstanceOf(DomainError)
		expect(await dueReviews(user.id)).toHaveLength(1)
		await confirmStillCorrect(user.id, profile.id)
		expect(await dueReviews(user.id)).toEqual([])
	})

	test('a setting changed (scanning, review interval, alerts) does not move the "last confirmed" date', async () => {
		const { user, profile, code } = await fullProfile()
		await db
			.update(s.medicalProfiles)
			.set({ confirmedAt: null, createdAt: ago(30), updatedAt: ago(30) })
			.where(eq(s.medicalProfiles.id, profile.id))
		const { updateProfileFields } = await import('#app/domain/profiles/profiles.server.ts')
		const before = await responderFooter(code.token)
		await updateProfileFields(user.id, profile.id, { reviewIntervalMonths: 12, helpingAlerts: false, isScannable: true })
		const row = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })
		expect(row!.confirmedAt).toBeNull()
		expect(await responderFooter(code.token)).toBe(before)
	})
})
