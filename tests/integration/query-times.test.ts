import { sql } from 'drizzle-orm'
import { integer, pgTable } from 'drizzle-orm/pg-core'
import { expect, test } from 'vitest'
import { connect, observeQueryTimes } from '#db/client.ts'

const numbers = pgTable('query_times_numbers', { n: integer().notNull() })

/** Statements timed through the driver (the metrics' hmh_db_query_duration_seconds): plain, in a transaction, failed. */
async function timings(databaseUrl: string | undefined) {
	const seen: Array<{ seconds: number; failed: boolean }> = []
	const stop = observeQueryTimes((seconds, failed) => seen.push({ seconds, failed }))
	const { db, close } = connect(databaseUrl, 'memory://')
	try {
		await db.execute(sql`create temporary table query_times_numbers (n integer not null)`)
		await db.insert(numbers).values([{ n: 1 }, { n: 2 }])
		// Rows as arrays (postgres.js's .values(), asked for after the call that is timed) are still rows.
		expect(await db.select({ n: numbers.n }).from(numbers).orderBy(numbers.n)).toEqual([{ n: 1 }, { n: 2 }])
		const before = seen.length
		await db.transaction(async (tx) => {
			await tx.select().from(numbers)
			await tx.transaction(async (savepoint) => savepoint.select().from(numbers))
		})
		expect(seen.length - before).toBeGreaterThanOrEqual(2)
		await expect(db.execute(sql`select * from no_such_table`)).rejects.toThrow()
		expect(seen.at(-1)).toMatchObject({ failed: true })
		expect(seen.filter((s) => !s.failed).length).toBeGreaterThanOrEqual(5)
		expect(seen.every((s) => s.seconds >= 0 && s.seconds < 60)).toBe(true)
	} finally {
		stop()
		await close()
	}
}

test('every statement on the embedded database is timed, failures as such', () => timings(undefined))

test.skipIf(!process.env.DATABASE_URL)('every statement on PostgreSQL is timed, in transactions and savepoints too', () =>
	timings(process.env.DATABASE_URL),
)
