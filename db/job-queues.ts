import { sql, type SQL } from 'drizzle-orm'
import PgBoss from 'pg-boss'
import { rowsOf, type Database, type Executor } from './client.ts'

/** pg-boss keeps its tables in a schema of its own beside the app's, created and migrated with the app's tables. */
export const JOB_SCHEMA = 'pgboss'

/** How pg-boss keeps, retries and expires each queue's jobs, by queue name (the app's queues: app/jobs/queues.ts). */
export type JobQueueSettings = Record<string, { jobs: Omit<PgBoss.Queue, 'name'> }>

type RawClient =
	| { exec(text: string): Promise<{ rows: unknown[] }[]>; query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> }
	| {
			unsafe(text: string, values?: unknown[]): Promise<unknown[]>
			reserve(): Promise<{ unsafe(text: string): Promise<unknown[]>; release(): void }>
	  }

/** node-postgres, which pg-boss was written for, sends objects as JSON and undefined as null; the others need telling. */
const asParameter = (value: unknown) =>
	value === undefined
		? null
		: value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
			? JSON.stringify(value)
			: value

/**
 * pg-boss over the app's own connection (postgres.js or PGlite) instead of a pool of its own: the embedded database
 * allows one client, and PostgreSQL gets no second pool. Statements without parameters are pg-boss's schema scripts,
 * several statements in one (some inside BEGIN … COMMIT, which postgres.js allows only on a reserved connection).
 */
export function jobDatabase(database: Database): PgBoss.Db {
	const client = (database as unknown as { $client: RawClient }).$client
	return {
		async executeSql(text, values) {
			if ('exec' in client) {
				if (!values?.length) return { rows: (await client.exec(text)).at(-1)?.rows ?? [] }
				return { rows: (await client.query(text, values.map(asParameter))).rows }
			}
			if (!values?.length && /\bBEGIN\b/.test(text)) {
				const reserved = await client.reserve()
				try {
					return { rows: [...(await reserved.unsafe(text))] }
				} finally {
					reserved.release()
				}
			}
			return { rows: [...(await client.unsafe(text, (values ?? []).map(asParameter)))] }
		},
	}
}

/**
 * pg-boss inside a transaction of the app's (a job sent with `{ db }`): its numbered parameters become the query's own,
 * so the job is written, or rolled back, with the rows beside it.
 */
export function transactionJobDatabase(tx: Executor): PgBoss.Db {
	return {
		async executeSql(text, values = []) {
			const parts = text.split(/\$(\d+)/)
			const query: SQL[] = parts.map((part, i) => (i % 2 ? sql`${asParameter(values[Number(part) - 1])}` : sql.raw(part)))
			return { rows: rowsOf(await tx.execute(sql.join(query))) }
		},
	}
}

export function jobBoss(database: Database, options: Partial<PgBoss.ConstructorOptions> = {}) {
	return new PgBoss({ db: jobDatabase(database), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: false, ...options })
}

/** At start: pg-boss's tables (created or migrated to the installed version) and every queue with its current settings. */
export async function prepareJobQueues(database: Database, queues: JobQueueSettings) {
	const boss = jobBoss(database, { migrate: true })
	await boss.start()
	try {
		for (const [name, { jobs }] of Object.entries(queues)) {
			await boss.createQueue(name, { name, ...jobs })
			// createQueue leaves an existing queue as it was: settings changed here reach it too.
			await boss.updateQueue(name, { name, ...jobs })
		}
		// A queue the app no longer has keeps no clock: its jobs would wait for a worker that never comes.
		for (const { name } of await boss.getSchedules()) if (!(name in queues)) await boss.deleteQueue(name)
	} finally {
		await boss.stop({ graceful: false, close: false })
	}
}
