// First: a configuration that may not start is refused before anything reads it (this module is the server build's
// first import, through app/entry.server.tsx).
import '../app/utils/env-start.server.ts'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { closeDb, db } from '../db/client.ts'
import { embeddedDatabaseHolder, holdEmbeddedDatabase } from '../db/embedded-lock.ts'
import { DatabaseNotReady, prepareDatabase, requireMigrated } from '../db/prepare.ts'
import { flushVisits } from '../app/domain/analytics/collect.server.ts'
import { JOB_QUEUES } from '../app/jobs/queues.ts'
import { startJobs } from '../app/jobs/registry.server.ts'
import { MAX_REQUEST_BYTES } from '../app/domain/uploads/uploads.server.ts'
import { addressMatcher } from '../app/utils/client-address.ts'
import { isDatabaseUnavailable } from '../app/utils/database-outage.server.ts'
import { env } from '../app/utils/env.server.ts'
import { log, type LogScope } from '../app/utils/log.server.ts'
import { hashPassword } from '../app/utils/password.server.ts'
import { clientAddressContext } from '../app/utils/request.server.ts'
import { sealColumns } from '../app/utils/sealed-data.server.ts'
import { appVersion, startErrorReporting } from './error-reporting.ts'
import { createProbes } from './health-probes.ts'
import { serveMetrics } from './metrics.ts'
import { withRequestLog } from './request-log.ts'

// The schema's sealed columns read and write with the app's data keys from the first query on.
sealColumns()

/**
 * What the process (server.ts) needs of the app, from the server build itself: one copy of each module (the logger,
 * the settings, the database connection, the job workers) serves both the requests and the process around them.
 * `app/entry.server.tsx` exports it; server.ts finds it on the build's `entry.module`.
 */
export const lifecycle = {
	env,
	log,
	maxRequestBytes: MAX_REQUEST_BYTES,
	clientAddressContext,

	/** A library's database call left un-awaited rejects unhandled while the database is away: an outage, not a crash. */
	isDatabaseUnavailable,

	/** Sentry with SENTRY_DSN, else nothing; answers the function that flushes and stops it. */
	startErrorReporting: (): Promise<() => Promise<boolean>> =>
		env.SENTRY_DSN
			? startErrorReporting(env.SENTRY_DSN, { release: appVersion(), environment: env.NODE_ENV })
			: Promise.resolve(async () => true),

	/**
	 * The embedded database (no DATABASE_URL) is this process's alone: refuses to start beside another server on the same
	 * DATA_DIR. Answers the function that lets it go.
	 */
	claimEmbeddedDatabase(): () => void {
		if (env.DATABASE_URL) return () => {}
		const holder = embeddedDatabaseHolder(env.DATA_DIR)
		if (holder) {
			log.fatal({ holder }, `Another server (pid ${holder}) is using the embedded database in ${env.DATA_DIR}.`)
			process.exit(1)
		}
		return holdEmbeddedDatabase(env.DATA_DIR)
	},

	/** /livez and /readyz; readiness fails once `isStopping` says so. */
	createProbes,

	/** Prometheus metrics on a loopback listener of their own (METRICS_HOST:METRICS_PORT), never on the public port. */
	serveMetrics: () => serveMetrics({ port: env.METRICS_PORT, host: env.METRICS_HOST }),

	/** Every request gets an id and one access line (a trusted proxy's X-Request-Id is kept). */
	withRequestLog: (
		listener: (req: IncomingMessage, res: ServerResponse, scope: LogScope) => void,
		onFinished?: Parameters<typeof withRequestLog>[1]['onFinished'],
	) => withRequestLog(listener, { isTrustedProxy: addressMatcher(env.TRUSTED_PROXIES), onFinished }),

	/**
	 * Migrations, job queues and seeding, once whatever the number of instances starting (an advisory lock); or, with
	 * MIGRATE_ON_START=false, only a check that `npm run db:migrate` has run (the process exits when it has not).
	 */
	async prepareDatabase() {
		if (env.MIGRATE_ON_START) {
			const demo = env.SEED_DEMO && env.NODE_ENV !== 'production'
			await prepareDatabase(db, { jobQueues: JOB_QUEUES, demo: demo ? { hashPassword } : undefined, log })
			return
		}
		await requireMigrated(db).catch((error: unknown) => {
			if (!(error instanceof DatabaseNotReady)) throw error
			log.fatal(error.message)
			process.exit(1)
		})
	},

	/** E-mail, scan alerts, analytics rollups and pruning, shared with every other instance; answers the stop. */
	startJobs,
	/** Page views wait in memory for up to a second; the last ones go in one insert at shutdown. */
	flushVisits,
	closeDb,
}

export type Lifecycle = typeof lifecycle
