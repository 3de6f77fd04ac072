import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import postgres from 'postgres'
import { sql } from 'drizzle-orm'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { describe, expect, test } from 'vitest'
import { currentRunName, databaseUrl } from '#tests/setup/databases.ts'
import { connect, observeQueries, rowsOf } from './client.ts'
import { JOB_QUEUES } from '#app/jobs/queues.ts'
import { migrationsFolder, pendingMigrations } from './migrate.ts'
import { DatabaseNotReady, prepareDatabase, requireMigrated } from './prepare.ts'
import { CATALOGUE } from './seed.ts'

const base = process.env.DATABASE_URL

// Two instances started at once on a new PostgreSQL database: before the lock, both created the same schemas and
// types and one failed on the catalogue's unique keys (pg_namespace, pg_type), every time.
describe.skipIf(!base)('two instances preparing one empty PostgreSQL database at once', () => {
	test('both succeed; the migrations are applied and the database seeded once', async () => {
		const name = `${currentRunName()}_prepare`
		const admin = postgres(base!, { max: 1, onnotice: () => {} })
		await admin.unsafe(`create database ${name}`)
		// Two clients, each with a pool of its own, as two processes would have.
		const first = connect(databaseUrl(base!, name), '')
		const second = connect(databaseUrl(base!, name), '')
		const statements: string[] = []
		const stopObserving = observeQueries((query) => statements.push(query))
		try {
			await expect(requireMigrated(first.db)).rejects.toThrow(DatabaseNotReady)
			await expect(requireMigrated(first.db)).rejects.toThrow(/npm run db:migrate/)

			await Promise.all([prepareDatabase(first.db, { jobQueues: JOB_QUEUES }), prepareDatabase(second.db, { jobQueues: JOB_QUEUES })])

			const migrations = readMigrationFiles({ migrationsFolder })
			const applied = rowsOf<{ n: number }>(await first.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))
			expect(applied[0]?.n).toBe(migrations.length)
			expect(await pendingMigrations(second.db)).toBe(0)
			await expect(requireMigrated(second.db)).resolves.toBeUndefined()
			// Seeded by one of the two only: the other found the catalogue there.
			expect(statements.filter((query) => /^insert into "products"/i.test(query))).toHaveLength(CATALOGUE.length)
			const products = rowsOf<{ n: number }>(await second.db.execute(sql`select count(*)::int as n from products`))
			expect(products[0]?.n).toBe(CATALOGUE.length)
			const queues = rowsOf<{ name: string }>(await first.db.execute(sql`select name from pgboss.queue order by name`))
			expect(queues.map((queue) => queue.name)).toEqual(Object.keys(JOB_QUEUES).sort())
		} finally {
			stopObserving()
			await Promise.all([first.close(), second.close()])
			await admin.unsafe(`drop database if exists ${name} with (force)`)
			await admin.end()
		}
	}, 60_000)

	test('two `npm run db:migrate` processes at once: both exit 0, one did the work and the other found it done', async () => {
		const name = `${currentRunName()}_migrate`
		const admin = postgres(base!, { max: 1, onnotice: () => {} })
		await admin.unsafe(`create database ${name}`)
		const run = () =>
			promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], {
				env: { ...process.env, DATABASE_URL: databaseUrl(base!, name), NODE_ENV: 'production', LOG_LEVEL: 'silent' },
			})
		try {
			const outputs = (await Promise.all([run(), run()])).map(({ stdout }) => stdout.trim()).sort()
			const migrations = readMigrationFiles({ migrationsFolder }).length
			expect(outputs).toEqual(
				[`Database ready: ${migrations} migrations applied, seeded.`, 'Database ready: migrations up to date.'].sort(),
			)
		} finally {
			await admin.unsafe(`drop database if exists ${name} with (force)`)
			await admin.end()
		}
	}, 60_000)
})

test('the embedded database (one process, no lock) is prepared the same way, and a second time finds nothing to do', async () => {
	const { db, close } = connect(undefined, 'memory://')
	try {
		await expect(requireMigrated(db)).rejects.toThrow(DatabaseNotReady)
		await prepareDatabase(db, { jobQueues: JOB_QUEUES })
		await prepareDatabase(db, { jobQueues: JOB_QUEUES })
		await expect(requireMigrated(db)).resolves.toBeUndefined()
	} finally {
		await close()
	}
}, 60_000)
