import { sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { storage } from '#app/adapters/storage.server.ts'

export type Reachability = 'ok' | 'unreachable'
export type Health = { status: 'ok' | 'unavailable'; database: Reachability; storage: Reachability }

/** A check that has not answered within this long counts as unreachable: a health check must answer quickly itself. */
export const HEALTH_TIMEOUT_MS = 3000

async function reachable(check: () => Promise<unknown>, timeoutMs: number): Promise<Reachability> {
	let timer: ReturnType<typeof setTimeout> | undefined
	const late = new Promise<'unreachable'>((resolve) => (timer = setTimeout(() => resolve('unreachable'), timeoutMs)))
	const answer = check().then(
		() => 'ok' as const,
		() => 'unreachable' as const,
	)
	try {
		return await Promise.race([answer, late])
	} finally {
		clearTimeout(timer)
	}
}

/**
 * Whether this instance can serve: the database answers a query and the file storage can store. Says only that, never
 * why (no addresses, no error texts): the answer is public.
 */
export async function checkHealth({
	database = () => db.execute(sql`select 1`),
	files = () => storage.ping(),
	timeoutMs = HEALTH_TIMEOUT_MS,
}: { database?: () => Promise<unknown>; files?: () => Promise<unknown>; timeoutMs?: number } = {}): Promise<Health> {
	const [databaseState, storageState] = await Promise.all([reachable(database, timeoutMs), reachable(files, timeoutMs)])
	return {
		status: databaseState === 'ok' && storageState === 'ok' ? 'ok' : 'unavailable',
		database: databaseState,
		storage: storageState,
	}
}
