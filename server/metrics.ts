import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { observeQueryTimes } from '../db/client.ts'
import { log, logScope, type LogScope } from '../app/utils/log.server.ts'
import { registerScrapeMetrics, type ScrapeSources } from './metrics-scrape.ts'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** Methods the app answers; any other is counted as 'other' (a label takes a bounded set of values). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** A response the router never saw: a built asset or public file (sirv), or a body refused as too large. */
export const STATIC_ROUTE = '(static)'
/** A request the router handled without naming a route (matched nothing, or failed before matching). */
export const NO_ROUTE = '(no route)'

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

	// The request's log scope (which the router's instrumentation fills with the matched route pattern), once seen.
	const scopes = new WeakMap<ServerResponse, LogScope | undefined>()

	/** Times every request `listener` answers. Put it inside the request's log scope, where the route pattern is written. */
	function measure(listener: Listener): Listener {
		return (req, res) => {
			const started = performance.now()
			let done = false
			const end = () => {
				if (done) return
				done = true
				const method = METHODS.has(req.method ?? '') ? req.method! : 'other'
				const routed = scopes.has(res)
				const route = (scopes.get(res) ?? logScope())?.route ?? (routed ? NO_ROUTE : STATIC_ROUTE)
				requests.observe({ method, route, status: String(res.statusCode) }, (performance.now() - started) / 1000)
			}
			res.once('finish', end)
			res.once('close', end)
			listener(req, res)
		}
	}

	/** Marks a request as handed to the router (what is not was a static file). */
	function routed(res: ServerResponse) {
		scopes.set(res, logScope())
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

	return { registry, measure, routed, listen, stop: stopTimingQueries }
}

export type Metrics = ReturnType<typeof createMetrics>

/**
 * The metrics, served on METRICS_HOST:METRICS_PORT unless the port is 0. A port taken (another instance on this machine)
 * is logged, not fatal: the app serves without its metrics rather than not at all.
 */
export function serveMetrics({ port, host, ...options }: MetricsOptions & { port: number; host: string }) {
	const metrics = createMetrics(options)
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

function packageVersion() {
	try {
		const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }
		return pkg.version ?? 'unknown'
	} catch {
		return 'unknown'
	}
}

/** When the deployment does not say (BUILD_COMMIT): the checkout's own commit, if git is there to say; else 'unknown'. */
function buildCommit() {
	try {
		const cwd = new URL('..', import.meta.url)
		return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] })
			.toString()
			.trim()
	} catch {
		return 'unknown'
	}
}
