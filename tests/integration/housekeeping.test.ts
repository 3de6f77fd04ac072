import { randomUUID } from 'node:crypto'
import { eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { pruneExpired } from '#app/domain/housekeeping/prune.server.ts'
import { hit } from '#app/utils/rate-limit.server.ts'
import { createUser } from '#tests/factories.ts'

const ago = (interval: string) => sql`now() - ${interval}::interval`
const ahead = (interval: string) => sql`now() + ${interval}::interval`

async function sessionsLeft(ids: string[]) {
	const rows = await db.select({ id: s.sessions.id }).from(s.sessions).where(inArray(s.sessions.id, ids))
	return rows.map((row) => row.id).sort()
}

async function countersLeft(keys: string[]) {
	const rows = await db.select({ key: s.rateLimits.key }).from(s.rateLimits).where(inArray(s.rateLimits.key, keys))
	return rows.map((row) => row.key).sort()
}

describe('pruneExpired', () => {
	test('deletes sessions past their expiry and counters whose window ended over an hour ago; keeps the rest', async () => {
		const user = await createUser()
		const id = (name: string) => `${name}-${randomUUID()}`
		const [expired, guestExpired, live] = [id('expired'), id('guest-expired'), id('live')]
		await db.insert(s.sessions).values([
			{ id: expired, userId: user.id, expiresAt: ago('1 minute') },
			{ id: guestExpired, expiresAt: ago('30 days') },
			{ id: live, userId: user.id, expiresAt: ahead('1 minute') },
		])
		const [old, recent, current] = [id('old'), id('recent'), id('current')]
		await db.insert(s.rateLimits).values([
			{ key: old, count: 9, resetAt: ago('61 minutes') },
			{ key: recent, count: 9, resetAt: ago('59 minutes') },
			{ key: current, count: 1, resetAt: ahead('1 minute') },
		])

		const pruned = await pruneExpired()

		expect(pruned.sessions).toBeGreaterThanOrEqual(2)
		expect(pruned.rateLimits).toBeGreaterThanOrEqual(1)
		expect(await sessionsLeft([expired, guestExpired, live])).toEqual([live])
		expect(await countersLeft([old, recent, current])).toEqual([recent, current].sort())
		// The account keeps its live session; the pruned counter's key starts a new window.
		expect(await db.query.users.findFirst({ where: eq(s.users.id, user.id) })).toBeDefined()
		expect(await hit(old, 1)).toMatchObject({ allowed: true })
	})
})
