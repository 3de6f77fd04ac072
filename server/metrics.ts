import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { observeQueryTimes } from '../db/client.ts'
import { newestBackup } from '../app/domain/housekeeping/backups.server.ts'
import { log } from '../app/utils/log.server.ts'
import { registerScrapeMetrics, type ScrapeSources } from './metrics-scrape.ts'
import type { FinishedRequest } from './request-log.ts'

/** Methods the app answers; any other is counted as 'other' (a label takes a bounded set of values). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export type MetricsOptions = ScrapeSources & {
	/** The app's version (package.json) and the commit it was built from. */
	version?: string
	commit?: string
}

/**
 * The app's Prometheus metrics: the process (prom-client's defaults: CPU, memory, handles, garbage collection, event-loop
 * lag), requests by route pattern and status, database queries, the job queues and the outbox (read at scrape time), the
 * build. Served only by `listen`, on a listener of its own: the public port never answers /metrics.
 */
export function createMetrics({ version = packageVersion(), commit = buildCommit(), ...sources }: MetricsOptions = {}) {
	const registry = new Registry()
	collectDefaultMetrics({ register: registry })

	new Gauge({
		name: 'hmh_build_info',
		help: 'The version and commit of the running build (always 1).',
		labelNames: ['version', 'commit'],
		registers: [registry],
	}).set({ version, commit }, 1)

	const requests = new Histogram({
		name: 'hmh_http_request_duration_seconds',
		help: 'Time from a request to the end of its answer, by route pattern (never the path itself) and status.',
		labelNames: ['method', 'route', 'status'],
		buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
		registers: [registry],
	})

	const queries = new Histogram({
		name: 'hmh_db_query_duration_seconds',
		help: 'Time from sending a database statement to its answer (waiting for a connection included), by outcome.',
		labelNames: ['outcome'],
		buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
		registers: [registry],
	})
	const stopTimingQueries = observeQueryTimes((seconds, failed) => queries.observe({ outcome: failed ? 'error' : 'ok' }, seconds))

	registerScrapeMetrics(registry, sources)

	/**
	 * One request ended, as the request log saw it (server/request-log.ts): its route is the pattern the router matched,
	 * "(static)" for a file, "(none)" for what no route answered; never the path or the query.
	 */
	function observeRequest({ method, route, status, seconds }: FinishedRequest) {
		requests.observe({ method: METHODS.has(method) ? method : 'other', route, status: String(status) }, seconds)
	}

	/** Serves /metrics on its own listener; everything else there is a 404. */
	function listen(port: number, host: string) {
		const server = createServer((req, res) => {
			req.resume()
			if (req.url?.split('?', 1)[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
				res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found')
				return
			}
			registry.metrics().then(
				(text) => {
					res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
					res.end(req.method === 'HEAD' ? undefined : text)
				},
				(error: unknown) => {
					log.error({ err: error }, 'metrics not collected')
					res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics not collected')
				},
			)
		})
		return new Promise<Server>((resolve, reject) => {
			server.once('error', reject)
			server.listen(port, host, () => {
				server.off('error', reject)
				resolve(server)
			})
		})
	}

	return { registry, observeRequest, listen, stop: stopTimingQueries }
}

export type Metrics = ReturnType<typeof createMetrics>

/**
 * The metrics, served on METRICS_HOST:METRICS_PORT unless the port is 0. A port taken (another instance on this machine)
 * is logged, not fatal: the app serves without its metrics rather than not at all.
 */
export function serveMetrics({ port, host, ...options }: MetricsOptions & { port: number; host: string }) {
	const metrics = createMetrics({ newestBackupAgeSeconds, ...options })
	if (port) {
		metrics.listen(port, host).then(
			(server) => {
				server.unref()
				const address = server.address() as AddressInfo
				log.info({ host: address.address, port: address.port }, 'metrics served at /metrics')
			},
			(error: unknown) => log.error({ err: error, host, port }, 'metrics listener not started'),
		)
	}
	return metrics
}

/** The newest backup's age, from the place backups are configured to go (BACKUP_S3_BUCKET or BACKUP_DIR). */
async function newestBackupAgeSeconds() {
	const newest = await newestBackup()
	return newest ? Math.max(0, (Date.now() - newest.at.getTime()) / 1000) : null
}

/** A file of the checkout, from this module as a source file (server/) or bundled into build/server/index.js. */
function projectFile(name: string) {
	return [`../${name}`, `../../${name}`].map((place) => new URL(place, import.meta.url)).find((url) => existsSync(url))!
}

function packageVersion() {
	try {
		const pkg = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version?: string }
		return pkg.version ?? 'unknown'
	} catch {
		return 'unknown'
	}
}

/** GIT_COMMIT when the deployment says it; else the checkout's own commit, if git is there to say; else 'unknown'. */
function buildCommit() {
	const configured = process.env.GIT_COMMIT?.trim()
	if (configured) return configured.slice(0, 12)
	try {
		const cwd = projectFile('.')
		return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] })
			.toString()
			.trim()
	} catch {
		return 'unknown'
	}
}
