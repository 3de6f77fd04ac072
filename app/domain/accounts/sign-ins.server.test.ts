import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { sessions, signIns } from '#db/schema.ts'
import { createUser } from '#tests/factories.ts'
import { endSessions, previousSignIn, recordSignIn, SIGN_INS_KEPT, signInPlace } from './sign-ins.server.ts'

const origin = (ipAddress: string, place: { city?: string; region?: string; country?: string } = {}) => ({ ipAddress, ...place })

async function openSession(userId: string) {
	const id = randomBytes(16).toString('base64url')
	await db.insert(sessions).values({ id, userId, expiresAt: sql`now() + interval '1 day'` })
	return id
}

describe('sign-ins', () => {
	test('the previous sign-in is the newest one other than this session’s own', async () => {
		const user = await createUser()
		expect(await previousSignIn(user.id)).toBeNull()
		const first = await recordSignIn(user.id, origin('203.0.113.1'))
		expect(await previousSignIn(user.id, first)).toBeNull()
		const second = await recordSignIn(user.id, origin('203.0.113.2', { city: 'Portland', region: 'ME', country: 'US' }))
		expect(await previousSignIn(user.id, second)).toMatchObject({ from: '203.0.113.1', at: expect.any(Date) })
		// Seen from the first session, the later sign-in elsewhere is the one to notice.
		expect(await previousSignIn(user.id, first)).toMatchObject({ from: 'Portland, ME, US (203.0.113.2)' })
		// A session that does not know its sign-in sees the newest.
		expect((await previousSignIn(user.id))!.from).toBe('Portland, ME, US (203.0.113.2)')
	})

	test(`only the newest ${SIGN_INS_KEPT} are kept per account, and no other account’s are touched`, async () => {
		const [user, other] = [await createUser(), await createUser()]
		await recordSignIn(other.id, origin('198.51.100.9'))
		const ids: number[] = []
		for (let i = 0; i < SIGN_INS_KEPT + 3; i++) ids.push(await recordSignIn(user.id, origin(`198.51.100.${i}`)))
		const kept = await db.select({ id: signIns.id }).from(signIns).where(eq(signIns.userId, user.id))
		expect(kept.map((r) => r.id).sort((a, b) => a - b)).toEqual(ids.slice(-SIGN_INS_KEPT))
		expect(await db.select().from(signIns).where(eq(signIns.userId, other.id))).toHaveLength(1)
	})

	test('long header values are cut short', async () => {
		const user = await createUser()
		const id = await recordSignIn(user.id, origin('203.0.113.5', { city: 'x'.repeat(500) }))
		const row = await db.query.signIns.findFirst({ where: eq(signIns.id, id) })
		expect(row!.city).toHaveLength(80)
	})

	test('the place reads as a person would say it', () => {
		const row = { ipAddress: '203.0.113.7', city: null, region: null, country: null }
		expect(signInPlace(row)).toBe('203.0.113.7')
		expect(signInPlace({ ...row, country: 'CA' })).toBe('CA (203.0.113.7)')
		expect(signInPlace({ ...row, ipAddress: null, city: 'Halifax', region: 'NS', country: 'CA' })).toBe('Halifax, NS, CA')
		expect(signInPlace({ ...row, ipAddress: null })).toBe('an unknown address')
	})
})

describe('ending sessions', () => {
	test('every session of the account, or all but one; other accounts keep theirs', async () => {
		const [user, other] = [await createUser(), await createUser()]
		const [a, b, c] = [await openSession(user.id), await openSession(user.id), await openSession(user.id)]
		const theirs = await openSession(other.id)
		expect(await endSessions(user.id, a)).toBe(2)
		const left = async (userId: string) => (await db.select().from(sessions).where(eq(sessions.userId, userId))).map((r) => r.id)
		expect(await left(user.id)).toEqual([a])
		expect(await endSessions(user.id)).toBe(1)
		expect(await left(user.id)).toEqual([])
		expect(await left(other.id)).toEqual([theirs])
		expect([b, c]).not.toContain(a)
	})
})
