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
}, 60_000)

test('0015: existing gifts were charged the gift and the fee once confirmed; shop orders were free, so nothing was charged', async () => {
	const { db, close } = connect(undefined, 'memory://')
	try {
		await migratePg(db, { migrationsFolder: migrationsUpTo('0014_outbox_sealed_helping_senders') })
		await db.execute(sql`insert into users (id, email) values ('a0000000-0000-4000-8000-000000000000', 'ada@example.com')`)
		await db.execute(sql`insert into orders (id, confirmation_number, customer_email, subtotal_cents, total_cents, is_free, payment_status) values
			('free', 'HMH-FREE', 'x@example.com', 1500, 2100, true, 'completed'),
			('paid', 'HMH-PAID', 'x@example.com', 1500, 2100, false, 'completed'),
			('back', 'HMH-BACK', 'x@example.com', 1500, 1800, false, 'refunded'),
			('fail', 'HMH-FAIL', 'x@example.com', 1500, 2100, false, 'failed')`)
		await db.execute(sql`insert into donations (amount_cents, fee_cents, refunded_cents, tier, status) values
			(1499, 75, 181, 'custom', 'succeeded'),
			(500, 45, 545, 'supporter', 'refunded'),
			(5000, 0, 0, 'champion', 'pending'),
			(2500, 100, 0, 'custom', 'failed')`)

		await migrate(db)

		// PGlite answers with { rows }.
		const read = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: unknown[] }).rows
		expect(await read(sql`select id, is_free, payment_status, charged_cents, refunded_cents from orders order by id`)).toEqual([
			{ id: 'back', is_free: false, payment_status: 'refunded', charged_cents: 1800, refunded_cents: 1800 },
			{ id: 'fail', is_free: false, payment_status: 'failed', charged_cents: 0, refunded_cents: 0 },
			{ id: 'free', is_free: true, payment_status: 'free', charged_cents: 0, refunded_cents: 0 },
			{ id: 'paid', is_free: false, payment_status: 'completed', charged_cents: 2100, refunded_cents: 0 },
		])
		expect(await read(sql`select status, charged_cents, refunded_cents from donations order by id`)).toEqual([
			{ status: 'succeeded', charged_cents: 1574, refunded_cents: 181 },
			{ status: 'refunded', charged_cents: 545, refunded_cents: 545 },
			{ status: 'pending', charged_cents: 0, refunded_cents: 0 },
			{ status: 'failed', charged_cents: 0, refunded_cents: 0 },
		])
	} finally {
		await close()
	}
}, 60_000)
