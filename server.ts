import { createServer } from 'node:http'
import compression from 'compression'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import sirv from 'sirv'
import { createRequestListener } from './server/request-listener.ts'
import { createDrain } from './server/graceful-shutdown.ts'
import type { Lifecycle } from './server/lifecycle.ts'

process.env.NODE_ENV ??= 'production'

// The app and everything the process needs of it (settings, logger, database, jobs: server/lifecycle.ts) come from the
// build, so that one copy of each module serves both. Its first import refuses a configuration that may not start.
const build = (await import(new URL('./build/server/index.js', import.meta.url).href)) as ServerBuild
const { lifecycle } = build.entry.module as unknown as { lifecycle: Lifecycle }
const { env, log } = lifecycle

// A library's database call left un-awaited (pg-boss's clock sends its ticks so) rejects unhandled while the database is
// away: an outage the app rides out, not a reason to exit. Any other unhandled rejection still ends the process.
process.on('unhandledRejection', (reason) => {
	if (!lifecycle.isDatabaseUnavailable(reason)) throw reason
	log.warn({ err: reason }, 'database unavailable')
})

const stopErrorReporting = await lifecycle.startErrorReporting()
// Anything else thrown where nothing catches it ends the process, as Node would, once it is logged (and reported).
process.on('uncaughtException', (error) => {
	log.fatal({ err: error }, 'uncaught exception: stopping')
	void stopErrorReporting().finally(() => process.exit(1))
})

const releaseEmbeddedDatabase = lifecycle.claimEmbeddedDatabase()

// /livez and /readyz; readiness fails from SIGTERM on (the drain, below, is made once the server is).
const probes = lifecycle.createProbes({ isStopping: () => drain.stopping() })
// Prometheus metrics on a loopback listener of their own (METRICS_HOST:METRICS_PORT), never on the public port.
const metrics = lifecycle.serveMetrics()
// Migrations, job queues and seeding, once whatever the number of instances starting (an advisory lock); or, with
// MIGRATE_ON_START=false, only a check that `npm run db:migrate` has run.
await lifecycle.prepareDatabase()
probes.databasePrepared()

const handleFetch = createRequestHandler(build, env.NODE_ENV)
const handleRequest = createRequestListener(
	(request, client) => {
		const context = new RouterContextProvider()
		context.set(lifecycle.clientAddressContext, client.address ?? null)
		return handleFetch(request, context)
	},
	{ maxBodyBytes: lifecycle.maxRequestBytes, log },
)

const assets = sirv('build/client', {
	etag: true,
	// The build writes .br and .gz beside each script and stylesheet (vite.config.ts): sent as they are.
	brotli: true,
	gzip: true,
	setHeaders(res, pathname) {
		// Vite names every built asset by its content hash: cache for a year. Other files revalidate.
		res.setHeader('cache-control', pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
		res.setHeader('x-content-type-options', 'nosniff')
	},
})
const compress = compression()

const server = createServer()
const drain = createDrain(server)
server.on(
	'request',
	drain.handle(
		probes.handle(
			lifecycle.withRequestLog((req, res, scope) => {
				compress(req as never, res as never, () => {
					scope.route = '(static)'
					assets(req, res, () => {
						scope.route = undefined
						handleRequest(req, res)
					})
				})
			}, metrics.observeRequest),
		),
	),
)

// E-mail, scan alerts, analytics rollups (every minute) and pruning (every 15 minutes), shared with every other instance.
const stopJobs = await lifecycle.startJobs()

server.listen(env.PORT, env.HOST, () => {
	log.info({ port: env.PORT, host: env.HOST ?? null }, `Hit Me Helpers is running at http://${env.HOST ?? 'localhost'}:${env.PORT}`)
})

/** How long requests under way at shutdown get to finish (an orchestrator's grace period is usually 30 s). */
const DRAIN_MS = 25_000

let stopping = false
/**
 * SIGTERM or SIGINT: stop accepting, let the requests under way finish, write what waits in memory (page views), close
 * the database. Exits 0, or 1 when requests had to be cut off.
 */
async function shutdown(signal: NodeJS.Signals) {
	if (stopping) return
	stopping = true
	log.info({ signal, inFlight: drain.inFlight() }, `${signal}: stopping; ${drain.inFlight()} requests in flight`)
	// Jobs stop being fetched at once; those under way get the same grace as requests.
	const jobsStopped = stopJobs(DRAIN_MS).catch((error: unknown) => log.error({ err: error }, 'jobs not stopped cleanly'))
	// Readiness fails now; requests are answered as usual for SHUTDOWN_DELAY_MS, then the drain.
	const drained = await drain.drainAfter(env.SHUTDOWN_DELAY_MS, DRAIN_MS)
	log.info(
		drained,
		`drained in ${drained.ms} ms: ${drained.inFlight} in flight, ${drained.answered} answered${drained.abandoned ? `, ${drained.abandoned} cut off after ${DRAIN_MS / 1000} s` : ''}`,
	)
	// Page views wait in memory for up to a second; the last ones go in one insert now.
	const views = await lifecycle.flushVisits().catch((error: unknown) => {
		log.error({ err: error }, 'last page views not written')
		return 0
	})
	if (views) log.info({ views }, 'last page views written')
	await jobsStopped
	await lifecycle.closeDb().catch((error: unknown) => log.error({ err: error }, 'database not closed cleanly'))
	releaseEmbeddedDatabase()
	await stopErrorReporting()
	process.exit(drained.abandoned === 0 ? 0 : 1)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
