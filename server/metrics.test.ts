import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { appHandler } from '#tests/app-handler.ts'
import { log, logScope } from '#app/utils/log.server.ts'
import { createMetrics, type Metrics } from './metrics.ts'
import { createRequestListener } from './request-listener.ts'
import { withRequestLog } from './request-log.ts'

const servers: Server[] = []
const portOf = (server: Server) => (server.address() as AddressInfo).port
async function listening(server: Server) {
	servers.push(server)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return `http://127.0.0.1:${portOf(server)}`
}

/**
 * The app's public listener as server.ts builds it: the request log (which reports each request to the metrics), static
 * files first (here one, /favicon.ico), the rest to the app's router. The route pattern is written into the scope by the
 * router's instrumentation (app/entry.server.tsx); the test's router has none, so the handler names it for /api/products.
 */
async function publicServer(metrics: Metrics) {
	const handle = await appHandler()
	const router = createRequestListener(
		(request) => {
			if (new URL(request.url).pathname === '/api/products') logScope()!.route = '/api/products'
			return handle(request)
		},
		{ maxBodyBytes: 1 << 20, log },
	)
	const server = createServer(
		withRequestLog(
			(req, res, scope) => {
				if (req.url === '/favicon.ico') {
					scope.route = '(static)'
					return void res.end('icon')
				}
				router(req, res)
			},
			{ isTrustedProxy: () => false, onFinished: metrics.observeRequest },
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
	const status = async (url: string) => {
		const response = await fetch(url)
		await response.arrayBuffer()
		return response.status
	}
	expect(await status(`${app}/api/products?utm=${Math.random()}`)).toBe(200)
	expect(await status(`${app}/api/products`)).toBe(200)
	expect(await status(`${app}/favicon.ico`)).toBe(200)
	expect(await status(`${app}/no-such-page-${Math.random()}`)).toBe(404)

	const response = await fetch(scrape)
	expect(response.status).toBe(200)
	expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
	let text = await response.text()
	// A request is counted when its response closes, which may come a moment after the client has read it.
	for (let i = 0; i < 50 && !text.includes('status="404"'); i++) text = await (await fetch(scrape)).text()

	const requests = 'hmh_http_request_duration_seconds'
	expect(sample(text, `${requests}_count`, 'method="GET",route="/api/products",status="200"')).toBe(2)
	expect(sample(text, `${requests}_count`, 'method="GET",route="(static)",status="200"')).toBe(1)
	expect(sample(text, `${requests}_count`, 'method="GET",route="(none)",status="404"')).toBe(1)
	expect(sample(text, `${requests}_sum`, 'method="GET",route="/api/products",status="200"')).toBeGreaterThan(0)
	expect(text).not.toMatch(/utm|no-such-page/)

	expect(sample(text, 'hmh_db_query_duration_seconds_count', 'outcome="ok"')).toBeGreaterThan(0)
	expect(sample(text, 'hmh_build_info', 'version="1.2.3",commit="abc123"')).toBe(1)
	expect(sample(text, 'hmh_job_queue_waiting', 'queue="send-email"')).toBeGreaterThanOrEqual(0)
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

test("the newest backup's age: +Inf when there is none, NaN when the listing is late", async () => {
	const none = createMetrics({ newestBackupAgeSeconds: async () => null })
	const late = createMetrics({ newestBackupAgeSeconds: () => new Promise(() => {}), timeoutMs: 200 })
	try {
		expect(await none.registry.metrics()).toMatch(/^hmh_backup_newest_age_seconds \+Inf$/m)
		const text = await late.registry.metrics()
		expect(text).toMatch(/^hmh_backup_newest_age_seconds nan$/im) // prom-client writes "Nan"; Prometheus reads any case
		expect(sample(text, 'hmh_metrics_source_up', 'source="backups"')).toBe(0)
	} finally {
		none.stop()
		late.stop()
	}
})
