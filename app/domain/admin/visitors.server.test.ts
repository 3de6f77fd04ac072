import { createHmac, randomUUID } from 'node:crypto'
import { and, eq, gt, inArray, max } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { emails, sessions, users, visits } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { env } from '#app/utils/env.server.ts'
import { createUser } from '#tests/factories.ts'
import {
	DEFAULT_NOTICE_SUBJECT,
	noticeOptOutToken,
	notifyRecentVisitors,
	optOutOfNotices,
	recentVisitors,
	VISITOR_NOTICE_EMAIL_TYPE,
} from './visitors.server.ts'

const HOUR = 3_600_000

async function signedIn(hoursAgo: number, values: Parameters<typeof createUser>[0] = {}) {
	const user = await createUser(values)
	const createdAt = new Date(Date.now() - hoursAgo * HOUR)
	await db.insert(sessions).values({ id: randomUUID(), userId: user.id, createdAt, expiresAt: new Date(createdAt.getTime() + 720 * HOUR) })
	return user
}

async function visited(hoursAgo: number) {
	const user = await createUser()
	await db
		.insert(visits)
		.values({ path: '/dashboard', visitorHash: 1n, isFirstVisit: true, userId: user.id, visitedAt: new Date(Date.now() - hoursAgo * HOUR) })
	return user
}

const notices = (userIds: string[]) =>
	db
		.select()
		.from(emails)
		.where(and(eq(emails.emailType, VISITOR_NOTICE_EMAIL_TYPE), inArray(emails.userId, userIds)))

async function noticesSince(id: number) {
	return db
		.select({ userId: emails.userId })
		.from(emails)
		.where(and(eq(emails.emailType, VISITOR_NOTICE_EMAIL_TYPE), gt(emails.id, id)))
}
async function lastEmailId() {
	const [row] = await db.select({ id: max(emails.id) }).from(emails)
	return row?.id ?? 0
}

async function withOwner<T>(email: string, run: () => Promise<T>) {
	const saved = env.OWNER_EMAIL
	env.OWNER_EMAIL = email.toLowerCase()
	try {
		return await run()
	} finally {
		env.OWNER_EMAIL = saved
	}
}

async function refusal(promise: Promise<unknown>) {
	const error = await promise.then(
		() => null,
		(e: unknown) => e,
	)
	expect(error).toBeInstanceOf(DomainError)
	const { status, message, field } = error as DomainError
	return { status, message, field }
}

describe('recent visitors', () => {
	test('signed in (a new session) or visiting within the range; not opted out; never the owner', async () => {
		const hourAgo = await signedIn(1, { firstName: 'Ada', lastName: 'Lovelace' })
		const twoDays = await visited(48)
		const tenDays = await signedIn(240)
		const optedOut = await signedIn(1, { noticesOptedOutAt: new Date() })
		const owner = await signedIn(1, { email: `Owner-${randomUUID()}@Example.com` })
		const idle = await createUser()
		const oldVisit = await visited(24 * 100)

		await withOwner(owner.email, async () => {
			const ids = async (range: Parameters<typeof recentVisitors>[0]) => (await recentVisitors(range)).map((v) => v.id)
			const day = await ids('24hours')
			expect(day).toContain(hourAgo.id)
			for (const absent of [twoDays, tenDays, optedOut, owner, idle, oldVisit]) expect(day).not.toContain(absent.id)
			const week = await ids('7days')
			expect(week).toEqual(expect.arrayContaining([hourAgo.id, twoDays.id]))
			expect(week).not.toContain(tenDays.id)
			const month = await ids('30days')
			expect(month).toEqual(expect.arrayContaining([hourAgo.id, twoDays.id, tenDays.id]))
			for (const absent of [optedOut, owner, idle, oldVisit]) expect(month).not.toContain(absent.id)
			expect(await ids('90days')).not.toContain(oldVisit.id)
		})
		// Without OWNER_EMAIL nobody is the owner.
		expect((await recentVisitors('24hours')).map((v) => v.id)).toContain(owner.id)

		expect((await recentVisitors('24hours')).find((v) => v.id === hourAgo.id)).toEqual({
			id: hourAgo.id,
			email: hourAgo.email,
			name: 'Ada Lovelace',
		})
		expect(await recentVisitors('90days', { limit: 1 })).toHaveLength(1)
	})
})

describe('notifying recent visitors', () => {
	test('one notice each, at most one per 24 hours; successCount and totalUsers', async () => {
		const owner = await signedIn(2)
		const a = await signedIn(1, { firstName: 'Grace' })
		const b = await visited(30)
		const optedOut = await signedIn(1, { noticesOptedOutAt: new Date() })
		const outside = await signedIn(24 * 10)

		await withOwner(owner.email, async () => {
			const mark = await lastEmailId()
			const first = await notifyRecentVisitors('7days')
			const queued = await noticesSince(mark)
			expect(first.successCount).toBe(queued.length)
			expect(first.totalUsers).toBe((await recentVisitors('7days')).length)
			expect(first.totalUsers).toBeGreaterThanOrEqual(first.successCount)
			const reached = queued.map((n) => n.userId)
			expect(reached).toEqual(expect.arrayContaining([a.id, b.id]))
			for (const absent of [owner, optedOut, outside]) expect(reached).not.toContain(absent.id)

			const [notice] = await notices([a.id])
			expect(notice).toMatchObject({ toAddress: a.email, subject: DEFAULT_NOTICE_SUBJECT, userId: a.id })
			const text = notice!.textBody
			expect(text).toContain('Hello Grace,')
			for (const part of ['medical information', 'DNR/POLST', 'medications', 'emergency contacts', 'http://localhost:3000/dashboard'])
				expect(text).toContain(part)
			expect(text).toContain(`http://localhost:3000/notices/opt-out?token=${noticeOptOutToken(a.id)}`)

			// Again at once: everyone found already had one today.
			const second = await notifyRecentVisitors('7days')
			expect(second.successCount).toBe(0)
			expect(second.totalUsers).toBe(first.totalUsers)
			expect(await notices([a.id, b.id])).toHaveLength(2)

			// A day later (a's notice 25 hours old, b's still recent): a gets a second one, b does not.
			await db
				.update(emails)
				.set({ createdAt: new Date(Date.now() - 25 * HOUR) })
				.where(eq(emails.id, notice!.id))
			const mark2 = await lastEmailId()
			const third = await notifyRecentVisitors('7days')
			expect((await noticesSince(mark2)).map((n) => n.userId)).toEqual([a.id])
			expect(third.successCount).toBe(1)
			expect(await notices([a.id])).toHaveLength(2)
			expect(await notices([b.id])).toHaveLength(1)
		})
	})

	test('the owner may write the subject and text; the dashboard link and opt-out line are always added', async () => {
		const person = await signedIn(1)
		await notifyRecentVisitors('24hours', { subject: '  Our new responder page  ', text: 'We made the responder page faster.' })
		const [notice] = await notices([person.id])
		expect(notice!.subject).toBe('Our new responder page')
		expect(notice!.textBody.startsWith('We made the responder page faster.')).toBe(true)
		expect(notice!.textBody).toContain('http://localhost:3000/dashboard')
		expect(notice!.textBody).toContain('/notices/opt-out?token=')
	})

	test('a bad subject or text is a 400 and nothing is queued', async () => {
		const person = await signedIn(1)
		expect(await refusal(notifyRecentVisitors('24hours', { subject: 'two\nlines' }))).toMatchObject({ status: 400, field: 'subject' })
		expect(await refusal(notifyRecentVisitors('24hours', { subject: 'x'.repeat(201) }))).toMatchObject({ status: 400, field: 'subject' })
		expect(await refusal(notifyRecentVisitors('24hours', { text: 'x'.repeat(5001) }))).toMatchObject({ status: 400, field: 'text' })
		expect(await notices([person.id])).toEqual([])
	})

	test('simultaneous calls take turns: nobody gets two', async () => {
		const person = await signedIn(1)
		const results = await Promise.all([notifyRecentVisitors('24hours'), notifyRecentVisitors('24hours')])
		expect(await notices([person.id])).toHaveLength(1)
		expect(results.map((r) => r.totalUsers)[0]).toBe(results[1]!.totalUsers)
	})
})

describe('opting out of notices', () => {
	const optedOutAt = async (id: string) => (await db.query.users.findFirst({ where: eq(users.id, id) }))!.noticesOptedOutAt

	test('a forged, cut or foreign token changes nothing', async () => {
		const person = await signedIn(1)
		const other = await createUser()
		const token = noticeOptOutToken(person.id)
		const mac = token.slice(token.lastIndexOf('.') + 1)
		const flipped = mac.slice(0, -1) + (mac.at(-1) === 'A' ? 'B' : 'A')
		const otherSecret = createHmac('sha256', 'not-the-secret').update(`notice-opt-out:${person.id}`).digest('base64url')
		for (const forged of [
			`${person.id}.${flipped}`,
			`${other.id}.${mac}`,
			`${person.id}.${otherSecret}`,
			`${person.id}.${mac.slice(0, -2)}`,
			`${person.id}.`,
			`.${mac}`,
			person.id,
			'',
			`${person.id}.${mac}${'x'.repeat(600)}`,
			noticeOptOutToken(randomUUID()),
		])
			expect(await optOutOfNotices(forged), forged.slice(0, 80)).toBe(false)
		expect(await optOutOfNotices(undefined as unknown as string)).toBe(false)
		expect(await optedOutAt(person.id)).toBeNull()
		expect(await optedOutAt(other.id)).toBeNull()
	})

	test('the real token opts the person out, once (the first date is kept); they are no longer a recent visitor', async () => {
		const person = await signedIn(1)
		expect((await recentVisitors('24hours')).map((v) => v.id)).toContain(person.id)
		expect(await optOutOfNotices(noticeOptOutToken(person.id))).toBe(true)
		const first = await optedOutAt(person.id)
		expect(first).toBeInstanceOf(Date)
		expect(await optOutOfNotices(noticeOptOutToken(person.id))).toBe(true)
		expect(await optedOutAt(person.id)).toEqual(first)
		expect((await recentVisitors('24hours')).map((v) => v.id)).not.toContain(person.id)
		await notifyRecentVisitors('24hours')
		expect(await notices([person.id])).toEqual([])
	})

	test('tokens signed before a secret rotation still work', async () => {
		const person = await createUser()
		const oldToken = noticeOptOutToken(person.id)
		const saved = env.sessionSecrets
		env.sessionSecrets = ['a-new-secret-that-signs-from-now-on-0123456789', ...saved]
		try {
			expect(noticeOptOutToken(person.id)).not.toBe(oldToken)
			expect(await optOutOfNotices(oldToken)).toBe(true)
		} finally {
			env.sessionSecrets = saved
		}
	})
})
