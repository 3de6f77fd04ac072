import { messagesTo } from '#app/adapters/mail.server.ts'
import { randomBytes } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { emailChanges, emails, sessions, users } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { env } from '#app/utils/env.server.ts'
import { createUser, sessionCookie, uniqueEmail } from '#tests/factories.ts'
import { EMAIL_TAKEN } from './accounts.server.ts'
import {
	ADDRESS_TAKEN_MEANWHILE,
	cancelEmailChange,
	confirmEmailChange,
	EMAIL_CHANGE_PATH,
	findEmailChange,
	LINK_NOT_VALID,
	pendingEmailChange,
	pruneExpiredEmailChanges,
	requestEmailChange,
} from './email-change.server.ts'
import { EMAIL_UNCHANGED } from './schemas.ts'

/** A refusal as the domain throws it: its status, message and (when it has one) field. */
const refusal = (status: number, message: string, field?: string) => ({ name: 'DomainError', status, message, field })

const userRow = (id: string) => db.query.users.findFirst({ where: eq(users.id, id) })

/** The newest message of a type to an address (the outbox keeps every one). */
async function lastMail(to: string, type: string) {
	const [row] = await db
		.select()
		.from(emails)
		.where(and(messagesTo(to), eq(emails.emailType, type)))
		.orderBy(desc(emails.id))
		.limit(1)
	return row
}

/** The token in the link of the last confirmation message sent to the address. */
async function tokenSentTo(to: string) {
	const mail = await lastMail(to, 'email-change')
	const link = new RegExp(`${EMAIL_CHANGE_PATH}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.textBody ?? '')
	return link?.[1] ?? ''
}

async function sessionIds(userId: string) {
	return (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).map((r) => r.id).sort()
}

/** A session row for the user, as a sign-in makes; returns its id. */
async function openSession(userId: string) {
	const id = randomBytes(16).toString('base64url')
	await db.insert(sessions).values({ id, userId, expiresAt: sql`now() + interval '1 day'` })
	return id
}

describe('asking for a new address', () => {
	test('changes nothing yet: the link goes to the new address, the current one is told, only a hash is kept', async () => {
		const user = await createUser({ firstName: 'Ada' })
		const next = uniqueEmail('next')
		const asked = await requestEmailChange(user.id, next.toUpperCase())
		expect(asked).toMatchObject({ email: next })
		expect((await userRow(user.id))!.email).toBe(user.email)
		expect(await pendingEmailChange(user.id)).toMatchObject({ email: next })

		const link = await lastMail(next, 'email-change')
		expect(link).toMatchObject({ userId: user.id, subject: 'Confirm your new email address', status: 'pending' })
		expect(link!.textBody).toContain('Hello Ada,')
		expect(link!.textBody).toContain('Your account keeps its current address until the link is opened.')
		const token = await tokenSentTo(next)
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
		const row = await db.query.emailChanges.findFirst({ where: eq(emailChanges.userId, user.id) })
		expect(row!.tokenHash).not.toContain(token)
		expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 60 * 60 * 1000)

		const told = await lastMail(user.email, 'email-change-requested')
		expect(told).toMatchObject({ subject: 'A change of your email address was requested' })
		expect(told!.textBody).toContain(next)
		expect(told!.textBody).not.toContain(token)
	})

	test('the same address, one another account uses (any case), or no account: refused, nothing sent', async () => {
		const user = await createUser()
		const other = await createUser()
		await expect(requestEmailChange(user.id, user.email.toUpperCase())).rejects.toMatchObject(refusal(400, EMAIL_UNCHANGED, 'email'))
		await expect(requestEmailChange(user.id, other.email.toUpperCase())).rejects.toMatchObject(refusal(409, EMAIL_TAKEN, 'email'))
		await expect(requestEmailChange('no-such-user', uniqueEmail())).rejects.toMatchObject({ status: 404 })
		expect(await pendingEmailChange(user.id)).toBeNull()
		expect(await lastMail(user.email, 'email-change-requested')).toBeUndefined()
	})

	test('a new request replaces the one before: only the newest link works', async () => {
		const user = await createUser()
		const [first, second] = [uniqueEmail('first'), uniqueEmail('second')]
		await requestEmailChange(user.id, first)
		const firstToken = await tokenSentTo(first)
		await requestEmailChange(user.id, second)
		expect(await findEmailChange(firstToken)).toBeNull()
		await expect(confirmEmailChange(firstToken)).rejects.toMatchObject(refusal(404, LINK_NOT_VALID))
		expect(await findEmailChange(await tokenSentTo(second))).toEqual({ userId: user.id, email: second })
	})

	test('an account may ask as often in an hour as the strict tier allows in a minute', async () => {
		const user = await createUser()
		for (let i = 0; i < env.RATE_LIMIT_STRICT_PER_MINUTE; i++)
			await expect(requestEmailChange(user.id, uniqueEmail(`many${i}`))).resolves.toBeDefined()
		const limited = requestEmailChange(user.id, uniqueEmail('one-more'))
		await expect(limited).rejects.toMatchObject({ ...refusal(429, TOO_MANY_ATTEMPTS, 'email'), retryAfterSeconds: expect.any(Number) })
		// Another account is not held back by this one.
		await expect(requestEmailChange((await createUser()).id, uniqueEmail('other'))).resolves.toBeDefined()
	})

	test('cancelling withdraws the change and its link', async () => {
		const user = await createUser()
		const next = uniqueEmail('cancelled')
		await requestEmailChange(user.id, next)
		const token = await tokenSentTo(next)
		expect(await cancelEmailChange(user.id)).toBe(true)
		expect(await cancelEmailChange(user.id)).toBe(false)
		expect(await pendingEmailChange(user.id)).toBeNull()
		await expect(confirmEmailChange(token)).rejects.toBeInstanceOf(DomainError)
		expect((await userRow(user.id))!.email).toBe(user.email)
	})
})

describe('opening the link', () => {
	test('switches the address, marks it verified, spends the token and tells the previous address', async () => {
		const user = await createUser()
		expect(user.emailVerifiedAt).toBeNull()
		const next = uniqueEmail('confirmed')
		await requestEmailChange(user.id, next)
		const token = await tokenSentTo(next)
		const confirmed = await confirmEmailChange(token)
		expect(confirmed).toEqual({ userId: user.id, email: next, previousEmail: user.email, endedSessions: 0 })
		const row = (await userRow(user.id))!
		expect(row.email).toBe(next)
		expect(row.emailVerifiedAt).toBeInstanceOf(Date)
		expect(await pendingEmailChange(user.id)).toBeNull()
		await expect(confirmEmailChange(token)).rejects.toMatchObject(refusal(404, LINK_NOT_VALID))

		const told = await lastMail(user.email, 'email-changed')
		expect(told).toMatchObject({ subject: 'Your email address was changed', userId: user.id })
		expect(told!.textBody).toContain(`is now ${next}`)
	})

	test('keeps every session unless asked; when asked, ends all but the one that opened it', async () => {
		const user = await createUser()
		const [phone, laptop] = [await openSession(user.id), await openSession(user.id)]
		await requestEmailChange(user.id, uniqueEmail('keep'))
		await confirmEmailChange(await tokenSentTo((await pendingEmailChange(user.id))!.email))
		expect(await sessionIds(user.id)).toEqual([phone, laptop].sort())

		const next = uniqueEmail('end')
		await requestEmailChange(user.id, next)
		const confirmed = await confirmEmailChange(await tokenSentTo(next), { endOtherSessions: true, keepSessionId: phone })
		expect(confirmed).toMatchObject({ endedSessions: 1 })
		expect(await sessionIds(user.id)).toEqual([phone])

		// Opened signed out (another device): every session ends.
		const last = uniqueEmail('all')
		await requestEmailChange(user.id, last)
		await confirmEmailChange(await tokenSentTo(last), { endOtherSessions: true, keepSessionId: null })
		expect(await sessionIds(user.id)).toEqual([])
	})

	test('an address another account took meanwhile is not taken from it; the link is spent', async () => {
		const user = await createUser()
		const next = uniqueEmail('contested')
		await requestEmailChange(user.id, next)
		const token = await tokenSentTo(next)
		await createUser({ email: next.toUpperCase() })
		await expect(confirmEmailChange(token)).rejects.toMatchObject(refusal(409, ADDRESS_TAKEN_MEANWHILE))
		expect((await userRow(user.id))!.email).toBe(user.email)
		expect(await findEmailChange(token)).toBeNull()
	})

	test('an expired link does nothing, and housekeeping removes it', async () => {
		const user = await createUser()
		const next = uniqueEmail('expired')
		await requestEmailChange(user.id, next)
		const token = await tokenSentTo(next)
		await db
			.update(emailChanges)
			.set({ expiresAt: sql`now() - interval '1 minute'` })
			.where(eq(emailChanges.userId, user.id))
		expect(await findEmailChange(token)).toBeNull()
		expect(await pendingEmailChange(user.id)).toBeNull()
		await expect(confirmEmailChange(token)).rejects.toBeInstanceOf(DomainError)
		expect(await pruneExpiredEmailChanges()).toBeGreaterThanOrEqual(1)
		expect(await db.query.emailChanges.findFirst({ where: eq(emailChanges.userId, user.id) })).toBeUndefined()
		expect((await userRow(user.id))!.email).toBe(user.email)
	})

	test('an unknown or empty token finds nothing', async () => {
		expect(await findEmailChange('')).toBeNull()
		expect(await findEmailChange('not-a-token')).toBeNull()
		await expect(confirmEmailChange('not-a-token')).rejects.toBeInstanceOf(DomainError)
	})

	test('deleting the account removes its waiting change', async () => {
		const user = await createUser()
		await sessionCookie(user.id)
		await requestEmailChange(user.id, uniqueEmail('gone'))
		await db.delete(users).where(eq(users.id, user.id))
		expect(await db.query.emailChanges.findFirst({ where: eq(emailChanges.userId, user.id) })).toBeUndefined()
	})
})
