import type { Database } from './client.ts'
import { prepareJobQueues, type JobQueueSettings } from './job-queues.ts'
import { migrate, pendingMigrations } from './migrate.ts'
import { isEmpty, seed, type DemoAccount } from './seed.ts'

/** Where start-up work says what it did (the app's logger, handed in; silent when none is). */
export type PrepareLog = {
	info: (fields: object | string, message?: string) => void
	warn: (fields: object, message: string) => void
}

const silent: PrepareLog = { info: () => {}, warn: () => {} }

export type PrepareOptions = {
	/** The app's job queues, created or updated with pg-boss's tables (app/jobs/queues.ts). */
	jobQueues: JobQueueSettings
	/** Also make the demo account (SEED_DEMO), with the app's password hashing. */
	demo?: DemoAccount
	log?: PrepareLog
}

/**
 * The advisory lock that start-up work holds on PostgreSQL (any fixed number, the same in every instance): instances
 * starting together on a new database would otherwise all create the same schemas and types at once and fail on the
 * catalogue's unique keys.
 */
export const PREPARE_LOCK = 7_205_114_339_281

type LockClient = {
	reserve(): Promise<{ unsafe(text: string): Promise<Array<Record<string, unknown>>>; release(): void }>
}

/**
 * Apply committed migrations and the job queues' tables, and seed a database that has never been seeded: at start
 * (MIGRATE_ON_START) or by `npm run db:migrate`. Answers how many migrations it applied and whether it seeded. On PostgreSQL, one instance at a time: the others wait for the lock,
 * then find nothing left to do. PGlite has one process per data directory, so it needs no lock.
 */
export async function prepareDatabase(db: Database, options: PrepareOptions) {
	const log = options.log ?? silent
	return underPrepareLock(db, log, async () => {
		const migrations = await pendingMigrations(db)
		await migrate(db)
		await prepareJobQueues(db, options.jobQueues)
		const seeded = await isEmpty(db)
		if (seeded || options.demo) await seed(db, { demo: options.demo })
		if (migrations || seeded) log.info({ migrations, seeded }, 'database prepared')
		return { migrations, seeded }
	})
}

/**
 * A session-level advisory lock, held on one connection set aside from the pool for the whole of `work`, which runs on
 * the other connections (so the pool needs two at least). The lock goes with its session: an instance that dies
 * half-way frees it, and the next one carries on from the last migration committed.
 */
async function underPrepareLock<T>(db: Database, log: PrepareLog, work: () => Promise<T>): Promise<T> {
	const client = (db as unknown as { $client: object }).$client
	if (!('reserve' in client)) return work()
	const lockHolder = await (client as LockClient).reserve()
	try {
		const [tried] = await lockHolder.unsafe(`select pg_try_advisory_lock(${PREPARE_LOCK}) as locked`)
		if (!tried?.locked) {
			log.info('waiting for another instance to finish preparing the database')
			await lockHolder.unsafe(`select pg_advisory_lock(${PREPARE_LOCK})`)
		}
		try {
			return await work()
		} finally {
			// A connection that cannot unlock is most likely gone, and its lock with it; the work's own error matters more.
			await lockHolder
				.unsafe(`select pg_advisory_unlock(${PREPARE_LOCK})`)
				.catch((err: unknown) => log.warn({ err }, 'start-up lock not released'))
		}
	} finally {
		lockHolder.release()
	}
}

/** Why the server does not start: the database is behind the code, and migrations at start are off. */
export class DatabaseNotReady extends Error {}

/** With MIGRATE_ON_START off: the database must be at the newest migration already, else the server refuses to start. */
export async function requireMigrated(db: Database) {
	const pending = await pendingMigrations(db)
	if (pending)
		throw new DatabaseNotReady(
			`The database is ${pending} migration${pending === 1 ? '' : 's'} behind and MIGRATE_ON_START is off: run \`npm run db:migrate\` first.`,
		)
}
