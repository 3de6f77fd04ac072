import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { checkHealth } from '#app/domain/housekeeping/health.server.ts'
import { createProbes } from './health-probes.ts'

const servers: Array<ReturnType<typeof createServer>> = []
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** The probes in front of an app that answers 'app' to everything else, on a free port. */
async function serve(options: Parameters<typeof createProbes>[0], { prepared = true } = {}) {
	const probes = createProbes(options)
	if (prepared) probes.databasePrepared()
	let appRequests = 0
	const server = createServer(
		probes.handle((_req: IncomingMessage, res: ServerResponse) => {
			appRequests++
			res.end('app')
		}),
	)
	servers.push(server)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	return { probes, base, appRequests: () => appRequests }
}

const running = { isStopping: () => false }

test('/livez answers 200 "ok" without asking the database or the storage anything', async () => {
	let checks = 0
	const { base, appRequests } = await serve({ ...running, check: () => (checks++, checkHealth()) })
	const response = await fetch(`${base}/livez`)
	expect(response.status).toBe(200)
	expect(response.headers.get('cache-control')).toBe('no-store')
	expect(await response.text()).toBe('ok')
	expect(checks).toBe(0)
	expect(appRequests()).toBe(0)
	expect((await fetch(`${base}/livez`, { method: 'POST' })).status).toBe(405)
})

test('/readyz answers 200 when the database is prepared and reachable and the storage answers', async () => {
	const { base } = await serve(running)
	const response = await fetch(`${base}/readyz?probe=1`)
	expect(response.status).toBe(200)
	expect(response.headers.get('cache-control')).toBe('no-store')
	expect(await response.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok', migrations: 'done' })
	expect((await fetch(`${base}/readyz`, { method: 'HEAD' })).status).toBe(200)
})

test('/readyz answers 503 naming the part that is down (the database here), and nothing more', async () => {
	const fails = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=secret'))
	const { base } = await serve({ ...running, check: () => checkHealth({ database: fails }) })
	const response = await fetch(`${base}/readyz`)
	expect(response.status).toBe(503)
	expect(response.headers.get('retry-after')).toBe('5')
	const text = await response.text()
	expect(JSON.parse(text)).toEqual({ status: 'unavailable', database: 'unreachable', storage: 'ok', migrations: 'done' })
	expect(text).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|secret/)
})

test('/readyz answers 503 until the database is prepared', async () => {
	const { base, probes } = await serve(running, { prepared: false })
	const before = await fetch(`${base}/readyz`)
	expect(before.status).toBe(503)
	expect(await before.json()).toMatchObject({ status: 'unavailable', migrations: 'pending' })
	probes.databasePrepared()
	expect((await fetch(`${base}/readyz`)).status).toBe(200)
})

test('/readyz answers 503 "draining" once stopping, without I/O, while the other requests are answered as usual', async () => {
	let stopping = false
	let checks = 0
	const { base } = await serve({ isStopping: () => stopping, check: () => (checks++, checkHealth()) })
	expect((await fetch(`${base}/readyz`)).status).toBe(200)
	stopping = true
	const response = await fetch(`${base}/readyz`)
	expect(response.status).toBe(503)
	expect(await response.json()).toEqual({ status: 'draining' })
	expect(checks).toBe(1)
	expect((await fetch(`${base}/livez`)).status).toBe(200)
	expect(await (await fetch(`${base}/anything`)).text()).toBe('app')
})
