import { eq, sql } from 'drizzle-orm'
import type { Sql } from 'postgres'
import { describe, expect, test } from 'vitest'
import { connect, poolSettings, rowsOf } from './client.ts'
import { qrCodes } from './schema.ts'

test('DATABASE_POOL_MAX and DATABASE_PREPARE: 10 and on unless set', () => {
	expect(poolSettings({})).toEqual({ poolMax: 10, prepare: true })
	expect(poolSettings({ DATABASE_POOL_MAX: '25', DATABASE_PREPARE: 'false' })).toEqual({ poolMax: 25, prepare: false })
	expect(poolSettings({ DATABASE_POOL_MAX: ' ', DATABASE_PREPARE: '0' })).toEqual({ poolMax: 10, prepare: false })
	expect(poolSettings({ DATABASE_PREPARE: 'true' })).toEqual({ poolMax: 10, prepare: true })
})

// PgBouncer in transaction mode hands each transaction a server connection of its own: a statement prepared on one is
// unknown on the next. drizzle's .prepare('name') asks postgres.js for a named statement (the scan page's lookup is
// one); the connection's `prepare: false` must win over it, and over the driver's own statements.
describe.skipIf(!process.env.DATABASE_URL)('server-side prepared statements on PostgreSQL', () => {
	test.each([
		{ prepare: true, kept: true },
		{ prepare: false, kept: false },
	])('prepare $prepare: statements kept on the server: $kept', async ({ prepare, kept }) => {
		// One connection, so the statements are looked for where they were sent.
		const { db, close } = connect(process.env.DATABASE_URL, '', { poolMax: 1, prepare })
		try {
			const scanLike = db.query.qrCodes
				.findFirst({ columns: { id: true }, where: eq(qrCodes.token, sql.placeholder('token')) })
				.prepare('scan_like')
			await scanLike.execute({ token: 'no-such-token-0000' })
			await scanLike.execute({ token: 'no-such-token-0001' })
			const client = (db as unknown as { $client: Sql }).$client
			await client`select ${1}::int as one`
			await client.unsafe('select $1::int as two', [2])
			const statements = rowsOf<{ statement: string }>(await db.execute(sql`select statement from pg_prepared_statements`))
			if (kept) expect(statements.some((row) => row.statement.includes('"qr_codes"'))).toBe(true)
			else expect(statements).toEqual([])
		} finally {
			await close()
		}
	})
})
