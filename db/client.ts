import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import * as schema from './schema.ts'

export type Database = PostgresJsDatabase<typeof schema>
/** The database, or a transaction on it. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0]

type TimeObserver = (seconds: number, failed: boolean) => void

const observers = new Set<(query: string) => void>()
const timers = new Set<TimeObserver>()

/** Sees how long each statement took, from the driver's call to its answer (a wait for a connection included). */
export function observeQueryTimes(observer: TimeObserver) {
	timers.add(observer)
	return () => void timers.delete(observer)
}

const report = (started: number, failed: boolean) => {
	if (!timers.size) return
	const seconds = (performance.now() - started) / 1000
	timers.forEach((observe) => observe(seconds, failed))
}

type Thenable = { then: (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) => unknown }

/**
 * postgres.js runs a query only once it is awaited (so that `.values()` can still change what it answers): the clock
 * starts at the first `then`, and stops when the answer or the error comes.
 */
function timeOnAwait<Q extends Thenable>(query: Q): Q {
	const then = query.then
	let timed = false
	query.then = function (this: Q, onFulfilled, onRejected) {
		if (timed) return then.call(this, onFulfilled, onRejected)
		timed = true
		const started = performance.now()
		return then.call(
			this,
			(value) => {
				report(started, false)
				return onFulfilled ? onFulfilled(value) : value
			},
			(reason) => {
				report(started, true)
				if (onRejected) return onRejected(reason)
				throw reason
			},
		)
	}
	return query
}

type PostgresScope = {
	unsafe: (...args: never[]) => Thenable
	begin?: (...args: never[]) => unknown
	savepoint?: (...args: never[]) => unknown
}

/** Times every statement sent through `sql.unsafe` (what Drizzle and pg-boss use), in transactions and savepoints too. */
function timePostgres<S extends PostgresScope>(sql: S): S {
	const { unsafe, begin, savepoint } = sql
	sql.unsafe = ((...args: never[]) => timeOnAwait(unsafe(...args))) as S['unsafe']
	// The transaction's own scope is made by the driver for each transaction: timed as it is handed over.
	const scoped = (open: (...args: never[]) => unknown) =>
		((...args: unknown[]) => {
			const work = args.pop() as (scope: PostgresScope) => unknown
			return open(...([...args, (scope: PostgresScope) => work(timePostgres(scope))] as never[]))
		}) as never
	if (begin) sql.begin = scoped(begin)
	if (savepoint) sql.savepoint = scoped(savepoint)
	return sql
}

type PgliteScope = { query: (...args: never[]) => Promise<unknown>; transaction?: (...args: never[]) => Promise<unknown> }

function timePglite<S extends PgliteScope>(client: S): S {
	const query = client.query.bind(client)
	client.query = (async (...args: never[]) => {
		const started = performance.now()
		try {
			const result = await query(...args)
			report(started, false)
			return result
		} catch (error) {
			report(started, true)
			throw error
		}
	}) as S['query']
	const transaction = client.transaction?.bind(client)
	if (transaction)
		client.transaction = ((work: (tx: PgliteScope) => Promise<unknown>) =>
			transaction(((tx: PgliteScope) => work(timePglite(tx))) as never)) as S['transaction']
	return client
}

/** Sees every statement sent from now until the returned function is called: how tests count the queries a request makes. */
export function observeQueries(observer: (query: string) => void) {
	observers.add(observer)
	return () => void observers.delete(observer)
}

const logger = { logQuery: (query: string) => observers.forEach((observe) => observe(query)) }

/** How the app talks to PostgreSQL: DATABASE_POOL_MAX and DATABASE_PREPARE (checked with the other settings in app/utils/env-rules.server.ts). */
export type PoolSettings = { poolMax: number; prepare: boolean }

export function poolSettings(env: Record<string, string | undefined> = process.env): PoolSettings {
	const poolMax = Number(env.DATABASE_POOL_MAX?.trim() || 10)
	return {
		poolMax: Number.isInteger(poolMax) && poolMax > 0 ? poolMax : 10,
		prepare: !['false', '0'].includes(env.DATABASE_PREPARE?.trim() ?? ''),
	}
}

export function connect(
	databaseUrl: string | undefined,
	pgliteDir: string,
	settings: PoolSettings = poolSettings(),
): { db: Database; close: () => Promise<void> } {
	if (databaseUrl) {
		const client = timePostgres(
			postgres(databaseUrl, {
				max: settings.poolMax,
				// Off behind PgBouncer in transaction mode, where a statement prepared on one server connection is unknown on
				// the next. The connection's setting wins over the query's: drizzle's .prepare('name') asks for a named
				// statement, and postgres.js then still sends an unnamed one (db/pool-settings.test.ts).
				prepare: settings.prepare,
				onnotice: () => {},
				// Every query here reads a few rows by index. A parallel plan, chosen on a misestimate, spent 60-70 ms starting
				// workers on a 2-core machine for 1 ms of work (bench:analytics): latency is steadier without them.
				connection: { max_parallel_workers_per_gather: 0 },
				// A lost server (restart, failover) must not hold requests. The driver fails only the query that asked for a
				// connection when that connection cannot be made; the others wait in line for their own attempt, after a wait
				// that grows with every failure, up to 20 s by default. Under load, across a 3 s restart, requests waited 15 s
				// and more. Reconnecting at once drains the line as fast as the server refuses (a refused attempt costs one
				// query, no more attempts than queries), and the requests are answered 503 within a second
				// (app/middleware/database-outage.server.ts). A connection that cannot be made at all fails within 5 s.
				connect_timeout: 5,
				backoff: () => 0,
			}),
		)
		return { db: drizzlePg(client, { schema, casing: 'snake_case', logger }), close: () => client.end({ timeout: 5 }) }
	}
	if (pgliteDir !== 'memory://') mkdirSync(pgliteDir, { recursive: true })
	const client = timePglite(new PGlite(pgliteDir))
	const db = drizzlePglite(client, { schema, casing: 'snake_case', logger }) as unknown as Database
	return { db, close: () => client.close() }
}

/**
 * The process's one connection (PGlite allows one process per data directory): one copy of this module per process,
 * as server.ts reaches it through the server build (server/lifecycle.ts).
 */
const connection = connect(process.env.DATABASE_URL, process.env.PGLITE_DIR ?? join(process.env.DATA_DIR ?? '.data', 'db'))

export const db: Database = connection.db
export const closeDb = () => connection.close()
export { schema }

/** The rows of `db.execute(sql…)`: postgres.js answers an array, PGlite an object holding one. */
export function rowsOf<T>(result: unknown): T[] {
	return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[]
}

/**
 * An instant inside raw SQL. Drizzle converts a Date only where a column gives it the type; postgres.js refuses a bare
 * Date as a parameter, so it goes as ISO text, cast.
 */
export const instant = (date: Date) => sql`${date.toISOString()}::timestamptz`
