import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test, vi } from 'vitest'
import { log, logScope } from '../app/utils/log.server.ts'
import { withRequestLog, type FinishedRequest } from './request-log.ts'

afterEach(() => vi.restoreAllMocks())

/** A server behind withRequestLog whose handler logs one line and names its route, as the router would. */
async function loggedServer(trustedProxy: string) {
	const finished: FinishedRequest[] = []
	const scopes: Array<ReturnType<typeof logScope>> = []
	const server = createServer(
		withRequestLog(
			(_req, res) => {
				logScope()!.route = '/scan/:token'
				scopes.push({ ...logScope() })
				res.end('ok')
			},
			{ isTrustedProxy: (address) => address === trustedProxy, onFinished: (request) => finished.push(request) },
		),
	)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	return { url, finished, scopes, close: () => new Promise((resolve) => server.close(resolve)) }
}

test('every line of a request carries its id, echoed in the answer; one access line names the route pattern, never the path', async () => {
	const info = vi.spyOn(log, 'info')
	const server = await loggedServer('192.0.2.1')
	try {
		const answer = await fetch(`${server.url}/scan/SECRET-TOKEN?token=admin-secret`, { headers: { 'x-request-id': 'proxy-id-1' } })
		const requestId = answer.headers.get('x-request-id')!
		// Not from a trusted proxy: the offered id is replaced.
		expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
		await vi.waitFor(() => expect(server.finished).toHaveLength(1))
		expect(server.finished[0]).toMatchObject({ method: 'GET', route: '/scan/:token', status: 200 })
		const access = info.mock.calls.find(([, message]) => message === 'request')!
		expect(access[0]).toMatchObject({ method: 'GET', route: '/scan/:token', status: 200, ms: expect.any(Number) })
		expect(JSON.stringify(info.mock.calls)).not.toMatch(/SECRET-TOKEN|admin-secret/)
		// What the handler logs carries the same id (the logger adds the scope to each line).
		expect(server.scopes).toEqual([{ requestId, route: '/scan/:token' }])
	} finally {
		await server.close()
	}
})

test("a trusted proxy's X-Request-Id is kept when it is a plain id, replaced when it is not", async () => {
	const server = await loggedServer('127.0.0.1')
	try {
		const kept = await fetch(server.url, { headers: { 'x-request-id': 'edge-7f3a.1' } })
		expect(kept.headers.get('x-request-id')).toBe('edge-7f3a.1')
		const odd = await fetch(server.url, { headers: { 'x-request-id': 'a"b\\n{"level":"fatal"}' } })
		expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
	} finally {
		await server.close()
	}
})
