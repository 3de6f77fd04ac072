import PgBoss from 'pg-boss'
import type { Database } from './client.ts'

/** pg-boss keeps its tables in a schema of its own beside the app's, created and migrated with the app's tables. */
export const JOB_SCHEMA = 'pgboss'

type QueueSettings = {
	/** How pg-boss keeps, retries and expires the queue's jobs. */
	jobs: Omit<PgBoss.Queue, 'name'>
	/** How often an idle instance asks for work. */
	pollSeconds: number
	/** When the queue also runs on a clock (pg-boss sends each tick's job once, whatever the number of instances). */
	cron?: string
}

/**
 * Every queue of the app. A "stately" queue holds at most one waiting and one running job: a sweep asked for a hundred
 * times while one runs happens once more, not a hundred times.
 */
export const JOB_QUEUES = {
	// Delivers every message that is due; messages that failed come due again on their retry schedule (mail.server.ts).
	'deliver-email': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 600 }, pollSeconds: 2, cron: '* * * * *' },
	// Sends what "I'm helping" senders wrote since their last e-mail, as one update each (helping.server.ts).
	'helping-updates': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 300 }, pollSeconds: 10, cron: '* * * * *' },
	'analytics-rollup': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 600 }, pollSeconds: 5, cron: '* * * * *' },
	'prune-expired': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 600 }, pollSeconds: 30, cron: '*/15 * * * *' },
	// Asks owners whose profiles are due a review whether they are still correct (reviews.server.ts).
	'review-reminders': { jobs: { policy: 'stately', retryLimit: 0, expireInSeconds: 900 }, pollSeconds: 30, cron: '7 * * * *' },
	// Seals data not sealed under the current key (reseal.server.ts): at start, then daily; it works only after a change.
	'seal-data': {
		jobs: { policy: 'stately', retryLimit: 2, retryDelay: 300, expireInSeconds: 6 * 3600 },
		pollSeconds: 60,
		cron: '23 4 * * *',
	},
} as const satisfies Record<string, QueueSettings>

export type JobQueue = keyof typeof JOB_QUEUES

/** What each queue's job carries: ids and instants only, never personal data (job rows are not encrypted). */
export type JobData = {
	'deliver-email': Record<string, never>
	'helping-updates': Record<string, never>
	'analytics-rollup': Record<string, never>
	'prune-expired': Record<string, never>
	'review-reminders': Record<string, never>
	'seal-data': Record<string, never>
}

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

export function jobBoss(database: Database, options: Partial<PgBoss.ConstructorOptions> = {}) {
	return new PgBoss({ db: jobDatabase(database), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: false, ...options })
}

/** At start: pg-boss's tables (created or migrated to the installed version) and every queue with its current settings. */
export async function prepareJobQueues(database: Database) {
	const boss = jobBoss(database, { migrate: true })
	await boss.start()
	try {
		for (const [name, { jobs }] of Object.entries(JOB_QUEUES)) {
			await boss.createQueue(name, { name, ...jobs })
			// createQueue leaves an existing queue as it was: settings changed here reach it too.
			await boss.updateQueue(name, { name, ...jobs })
		}
	} finally {
		await boss.stop({ graceful: false, close: false })
	}
}
