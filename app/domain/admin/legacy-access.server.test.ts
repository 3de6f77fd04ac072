import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { auditLog, users } from '#db/schema.ts'
import { getAccessLevel } from '#app/domain/claims/claims.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { createUser } from '#tests/factories.ts'
import { ACCOUNT_NOT_FOUND, findAccounts, LEGACY_ACCESS_ACTION, MAX_ACCOUNT_QUERY, setLegacyAccess } from './legacy-access.server.ts'

const tag = () => randomUUID().slice(0, 8)
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id)
const entriesFor = (userId: string) =>
	db
		.select()
		.from(auditLog)
		.where(and(eq(auditLog.action, LEGACY_ACCESS_ACTION), eq(auditLog.subjectId, userId)))

test('finds accounts by a case-insensitive piece of the e-mail or name', async () => {
	const t = tag()
	const person = await createUser({ email: `legacy-${t}@example.com`, firstName: `Zeb${t}`, lastName: 'Quill' })
	const expected = {
		id: person.id,
		email: person.email,
		name: `Zeb${t} Quill`,
		isGrandfathered: false,
		createdAt: person.createdAt,
	}
	expect(await findAccounts(`LEGACY-${t.toUpperCase()}`)).toEqual([expected])
	expect(ids(await findAccounts(`  zeb${t}  `))).toEqual([person.id])
	expect(ids(await findAccounts(`zeb${t} quill`))).toEqual([person.id])
	expect(ids(await findAccounts(`${t}@EXAMPLE`))).toEqual([person.id])
	expect(await findAccounts(`nobody-${tag()}`)).toEqual([])
})

test('an empty query finds nothing; wildcards are plain characters; the query is capped; the limit holds', async () => {
	const person = await createUser()
	for (const empty of ['', '   ', '\n\t']) expect(await findAccounts(empty)).toEqual([])
	for (const wildcard of ['%', '_', '\\', '%%%']) expect(ids(await findAccounts(wildcard))).not.toContain(person.id)
	// Trimmed, then capped at 200 characters: what lies past the cap is not searched for.
	expect(ids(await findAccounts(`${' '.repeat(MAX_ACCOUNT_QUERY)}${person.email}`))).toEqual([person.id])
	expect(ids(await findAccounts(`${person.email}${' '.repeat(MAX_ACCOUNT_QUERY)}x`))).toEqual([person.id])
	expect(ids(await findAccounts(`${person.email}${'x'.repeat(1000)}`))).toEqual([])
	expect(await findAccounts('x'.repeat(100_000))).toEqual([])
	expect(await findAccounts('example.com', 1)).toHaveLength(1)
	expect((await findAccounts('example.com')).length).toBeLessThanOrEqual(20)
})

test('an exact e-mail comes first, then the newest', async () => {
	const t = tag()
	const exact = await createUser({ email: `first-${t}@example.com` })
	const longer = await createUser({ email: `x-first-${t}@example.com` })
	expect(ids(await findAccounts(`first-${t}@example.com`))).toEqual([exact.id, longer.id])
	expect(ids(await findAccounts(`first-${t}`))).toEqual([longer.id, exact.id])
})

test('granting and withdrawing legacy access: the account changes, the act is audited, the access level follows', async () => {
	const owner = await createUser()
	const person = await createUser({ firstName: 'Lin', lastName: 'Legacy' })

	expect(await setLegacyAccess(person.id, true, owner.id)).toEqual({
		id: person.id,
		email: person.email,
		name: 'Lin Legacy',
		isGrandfathered: true,
		createdAt: person.createdAt,
	})
	expect(await getAccessLevel(person.id)).toMatchObject({ isGrandfathered: true })
	expect(ids(await findAccounts(person.email))).toEqual([person.id])
	expect((await findAccounts(person.email))[0]!.isGrandfathered).toBe(true)

	await setLegacyAccess(person.id, false, owner.id)
	expect(await db.query.users.findFirst({ where: eq(users.id, person.id) })).toMatchObject({ isGrandfathered: false })
	expect(await getAccessLevel(person.id)).toMatchObject({ isGrandfathered: false })

	const entries = await entriesFor(person.id)
	expect(entries.map((e) => e.details)).toEqual([{ on: true }, { on: false }])
	expect(entries.every((e) => e.actorUserId === owner.id && e.subjectType === 'user')).toBe(true)
})

test('an unknown account is a 404 and nothing is written', async () => {
	const owner = await createUser()
	const missing = randomUUID()
	const error = await setLegacyAccess(missing, true, owner.id).catch((e: unknown) => e)
	expect(error).toBeInstanceOf(DomainError)
	expect(error).toMatchObject({ status: 404, message: ACCOUNT_NOT_FOUND })
	expect(await entriesFor(missing)).toEqual([])
})
