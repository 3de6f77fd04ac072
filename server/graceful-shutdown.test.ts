import { Agent, createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { createDrain } from './graceful-shutdown.ts'

/** A server whose answers take `delayMs`, with the drain in front, listening on a free port. */
async function slowServer(delayMs: number) {
	const server = createServer()
	const drain = createDrain(server, { quietMs: 100 })
	server.on(
		'request',
		drain.handle((req, res) => {
			setTimeout(() => res.end(`answered ${req.url}`), delayMs)
		}),
	)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return { server, drain, port: (server.address() as AddressInfo).port }
}

/** Polls, for a loaded machine: requests sent are not yet received. */
async function until(condition: () => boolean) {
	for (let i = 0; i < 200 && !condition(); i++) await sleep(10)
	expect(condition()).toBe(true)
}

function get(port: number, path: string, agent?: Agent) {
	return new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
		const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
			let text = ''
			res.on('data', (chunk) => (text += chunk))
			res.on('end', () => resolve({ status: res.statusCode!, text, connection: res.headers.connection }))
		})
		req.on('error', reject)
		req.end()
	})
}

test('requests under way at shutdown are answered, and told the connection closes; new connections are refused', async () => {
	const { drain, port } = await slowServer(200)
	const agent = new Agent({ keepAlive: true, maxSockets: 10 })
	const underWay = Array.from({ length: 5 }, (_, i) => get(port, `/${i}`, agent))
	await until(() => drain.inFlight() === 5)
	const drained = drain.drain(5000)
	const answers = await Promise.all(underWay)
	expect(answers.map((a) => a.text)).toEqual(['/0', '/1', '/2', '/3', '/4'].map((p) => `answered ${p}`))
	expect(answers.every((a) => a.connection === 'close')).toBe(true)
	await expect(get(port, '/late')).rejects.toMatchObject({ code: 'ECONNREFUSED' })
	expect(await drained).toMatchObject({ inFlight: 5, answered: 5, abandoned: 0 })
	agent.destroy()
})

test('a request that comes on a connection already open during the drain is answered, not reset', async () => {
	const { drain, port } = await slowServer(20)
	const agent = new Agent({ keepAlive: true, maxSockets: 1 })
	await get(port, '/first', agent)
	// The connection is idle and kept open; the drain must not close it under a request on its way.
	const drained = drain.drain(5000)
	const late = await get(port, '/on-open-connection', agent)
	expect(late).toEqual({ status: 200, text: 'answered /on-open-connection', connection: 'close' })
	expect(await drained).toMatchObject({ inFlight: 0, answered: 1, abandoned: 0 })
	agent.destroy()
})

test('what is not answered in time is cut off and counted', async () => {
	const { drain, port } = await slowServer(60_000)
	const stuck = get(port, '/stuck').catch((error: NodeJS.ErrnoException) => error.code)
	await until(() => drain.inFlight() === 1)
	const drained = await drain.drain(200)
	expect(drained).toMatchObject({ inFlight: 1, answered: 0, abandoned: 1 })
	expect(await stuck).toBe('ECONNRESET')
})

test('drainAfter: stopping at once, every request answered as usual during the delay, then the drain', async () => {
	const { drain, port } = await slowServer(20)
	const agent = new Agent({ keepAlive: true, maxSockets: 1 })
	expect(drain.stopping()).toBe(false)
	const drained = drain.drainAfter(1500, 5000)
	expect(drain.stopping()).toBe(true)
	// During the delay: still listening, and no answer says the connection closes.
	expect(await get(port, '/during-delay')).toEqual({ status: 200, text: 'answered /during-delay', connection: 'keep-alive' })
	expect(await get(port, '/kept', agent)).toMatchObject({ status: 200, connection: 'keep-alive' })
	// Then the drain: the idle kept connection is closed, new ones refused.
	expect(await drained).toMatchObject({ inFlight: 0, abandoned: 0 })
	await expect(get(port, '/after-delay', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' })
	agent.destroy()
})

test('drainAfter with no delay drains at once', async () => {
	const { drain, port } = await slowServer(20)
	const drained = drain.drainAfter(0, 5000)
	await expect(get(port, '/late', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' })
	expect(await drained).toMatchObject({ inFlight: 0, abandoned: 0 })
})
