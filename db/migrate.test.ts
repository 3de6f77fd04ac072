import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { migrate as migratePg } from 'drizzle-orm/postgres-js/migrator'
import { afterAll, expect, test } from 'vitest'
import { connect } from './client.ts'
import { migrate, migrationsFolder } from './migrate.ts'

const dirs: string[] = []
afterAll(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** The migrations folder as it was up to `tag`: a database migrated with it is one that shipped before. */
function migrationsUpTo(tag: string) {
	const dir = mkdtempSync(join(tmpdir(), 'hmh-migrations-'))
	dirs.push(dir)
	cpSync(migrationsFolder, dir, { recursive: true })
	const journalFile = join(dir, 'meta', '_journal.json')
	const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ idx: number; tag: string }> }
	const last = journal.entries.findIndex((entry) => entry.tag === tag)
	expect(last).toBeGreaterThanOrEqual(0)
	writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }))
	return dir
}

test('a database with orders keyed "{userId}:{key}" migrates to the client’s key, unique per person', async () => {
	const { db, close } = connect(undefined, 'memory://')
	try {
		await migratePg(db, { migrationsFolder: migrationsUpTo('0002_code_shows_own_profile') })
		const [ada, bob, gone] = [
			'a0000000-0000-4000-8000-000000000000',
			'b0000000-0000-4000-8000-000000000000',
			'c0000000-0000-4000-8000-000000000000',
		]
		await db.execute(sql`insert into users (id, email) values (${ada}, 'ada@example.com'), (${bob}, 'bob@example.com')`)
		// As createShopOrder wrote them: two people with the same client key, a key with a colon in it, a deleted
		// account's order (user_id set null, the old id still in the key), and an order without a key.
		const rows: Array<[string, string | null, string | null]> = [
			['o1', ada, `${ada}:same-key`],
			['o2', bob, `${bob}:same-key`],
			['o3', ada, `${ada}:with:colons`],
			['o4', null, `${gone}:kept-order`],
			['o5', bob, null],
		]
		for (const [id, userId, key] of rows) {
			await db.execute(
				sql`insert into orders (id, confirmation_number, user_id, customer_email, subtotal_cents, total_cents, idempotency_key) values (${id}, ${`HMH-${id.toUpperCase()}`}, ${userId}, 'x@example.com', 500, 0, ${key})`,
			)
		}

		await migrate(db)

		// PGlite answers with { rows }.
		const after = (await db.execute(sql`select id, user_id, idempotency_key from orders order by id`)) as unknown as { rows: unknown[] }
		expect(after.rows).toEqual([
			{ id: 'o1', user_id: ada, idempotency_key: 'same-key' },
			{ id: 'o2', user_id: bob, idempotency_key: 'same-key' },
			{ id: 'o3', user_id: ada, idempotency_key: 'with:colons' },
			{ id: 'o4', user_id: null, idempotency_key: 'kept-order' },
			{ id: 'o5', user_id: bob, idempotency_key: null },
		])
		await expect(
			db.execute(
				sql`insert into orders (id, confirmation_number, user_id, customer_email, subtotal_cents, total_cents, idempotency_key) values ('o6', 'HMH-O6', ${ada}, 'x@example.com', 0, 0, 'same-key')`,
			),
		).rejects.toThrow()
	} finally {
		await close()
	}
})
