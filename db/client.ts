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

/** One connection per process for each source: survives Vite's module reloads, and PGlite allows one process per data directory. */
const g = globalThis as { __db?: Database; __dbClose?: () => Promise<void>; __dbObservers?: Set<(query: string) => void> }

const observers = (g.__dbObservers ??= new Set())

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
		const client = postgres(databaseUrl, {
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
		})
		return { db: drizzlePg(client, { schema, casing: 'snake_case', logger }), close: () => client.end({ timeout: 5 }) }
	}
	if (pgliteDir !== 'memory://') mkdirSync(pgliteDir, { recursive: true })
	const client = new PGlite(pgliteDir)
	const db = drizzlePglite(client, { schema, casing: 'snake_case', logger }) as unknown as Database
	return { db, close: () => client.close() }
}

if (!g.__db) {
	const { db, close } = connect(process.env.DATABASE_URL, process.env.PGLITE_DIR ?? join(process.env.DATA_DIR ?? '.data', 'db'))
	g.__db = db
	g.__dbClose = close
}

export const db: Database = g.__db!
export const closeDb = () => g.__dbClose?.() ?? Promise.resolve()
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
