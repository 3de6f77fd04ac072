import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { appHandler } from '#tests/app-handler.ts'
import { logScope, runInLogScope } from '#app/utils/log.server.ts'
import { createMetrics, type Metrics } from './metrics.ts'
import { createRequestListener } from './request-listener.ts'

const servers: Server[] = []
const portOf = (server: Server) => (server.address() as AddressInfo).port
async function listening(server: Server) {
	servers.push(server)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return `http://127.0.0.1:${portOf(server)}`
}

/**
 * The app's public listener as server.ts builds it: each request in a log scope, timed, static files first (here one,
 * /favicon.ico), the rest to the app's router. The route pattern is written into the scope by the router's
 * instrumentation; here, for /api/products, by the handler in its place.
 */
async function publicServer(metrics: Metrics) {
	const handle = await appHandler()
	const router = createRequestListener(
		(request) => {
			if (new URL(request.url).pathname === '/api/products') logScope()!.route = 'api/products'
			return handle(request)
		},
		{ maxBodyBytes: 1 << 20 },
	)
	const server = createServer((req, res) =>
		runInLogScope({ requestId: 'test' }, () =>
			metrics.measure((req, res) => {
				if (req.url === '/favicon.ico') return void res.end('icon')
				metrics.routed(res)
				router(req, res)
			})(req, res),
		),
	)
	return listening(server)
}

afterAll(async () => {
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})

let metrics: Metrics
let app: string
let scrape: string
beforeAll(async () => {
	metrics = createMetrics({ version: '1.2.3', commit: 'abc123', newestBackupAgeSeconds: async () => 3600 })
	app = await publicServer(metrics)
	const listener = await metrics.listen(0, '127.0.0.1')
	servers.push(listener)
	scrape = `http://127.0.0.1:${portOf(listener)}/metrics`
	return () => metrics.stop()
})

/** The value of a sample, by name and exact labels as Prometheus writes them. */
function sample(text: string, name: string, labels = '') {
	const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `))
	return line === undefined ? undefined : Number(line.split(' ').at(-1))
}

test('requests are timed by route pattern and status, never by path or query; the database, jobs and outbox are read', async () => {
	expect((await fetch(`${app}/api/products?utm=${Math.random()}`)).status).toBe(200)
	expect((await fetch(`${app}/api/products`)).status).toBe(200)
	expect((await fetch(`${app}/favicon.ico`)).status).toBe(200)
	expect((await fetch(`${app}/no-such-page-${Math.random()}`)).status).toBe(404)

	const response = await fetch(scrape)
	expect(response.status).toBe(200)
	expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
	const text = await response.text()

	const requests = 'hmh_http_request_duration_seconds'
	expect(sample(text, `${requests}_count`, 'method="GET",route="api/products",status="200"')).toBe(2)
	expect(sample(text, `${requests}_count`, 'method="GET",route="(static)",status="200"')).toBe(1)
	expect(sample(text, `${requests}_count`, 'method="GET",route="(no route)",status="404"')).toBe(1)
	expect(sample(text, `${requests}_sum`, 'method="GET",route="api/products",status="200"')).toBeGreaterThan(0)
	expect(text).not.toMatch(/utm|no-such-page/)

	expect(sample(text, 'hmh_db_query_duration_seconds_count', 'outcome="ok"')).toBeGreaterThan(0)
	expect(sample(text, 'hmh_build_info', 'version="1.2.3",commit="abc123"')).toBe(1)
	expect(sample(text, 'hmh_job_queue_waiting', 'queue="deliver-email"')).toBeGreaterThanOrEqual(0)
	expect(sample(text, 'hmh_job_queue_failed', 'queue="seal-data"')).toBeGreaterThanOrEqual(0)
	expect(sample(text, 'hmh_emails', 'status="pending"')).toBeGreaterThanOrEqual(0)
	expect(sample(text, 'hmh_emails', 'status="failed"')).toBeGreaterThanOrEqual(0)
	expect(sample(text, 'hmh_backup_newest_age_seconds')).toBe(3600)
	for (const source of ['jobs', 'emails', 'backups']) expect(sample(text, 'hmh_metrics_source_up', `source="${source}"`)).toBe(1)
	// The process's own (prom-client's defaults), event-loop lag among them.
	expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0)
	expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
})

test('the public port has no /metrics; the metrics listener answers nothing else', async () => {
	expect((await fetch(`${app}/metrics`)).status).toBe(404)
	expect((await fetch(scrape.replace('/metrics', '/'))).status).toBe(404)
	expect((await fetch(scrape, { method: 'POST' })).status).toBe(404)
})

test('a database that does not answer leaves its gauges out, says so, and the scrape still answers in time', async () => {
	const down = createMetrics({
		jobCounts: () => new Promise(() => {}),
		emailCounts: () => Promise.reject(new Error('connect ECONNREFUSED')),
		timeoutMs: 200,
	})
	try {
		const text = await down.registry.metrics()
		expect(sample(text, 'hmh_metrics_source_up', 'source="jobs"')).toBe(0)
		expect(sample(text, 'hmh_metrics_source_up', 'source="emails"')).toBe(0)
		expect(text).not.toMatch(/^hmh_job_queue_waiting\{/m)
		expect(text).not.toMatch(/^hmh_emails\{/m)
		// Without a backup source, no backup gauge at all.
		expect(text).not.toMatch(/hmh_backup_newest_age_seconds/)
		expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
	} finally {
		down.stop()
	}
})
