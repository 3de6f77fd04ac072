import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer } from 'node:net'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

export type DrainResult = {
	/** Requests under way when the drain began. */
	inFlight: number
	/** Requests answered during the drain: those under way, and those that came on connections already open. */
	answered: number
	/** Requests still unanswered when the time ran out; their connections were closed. */
	abandoned: number
	ms: number
}

/**
 * Counts the requests in flight, and drains them at shutdown. The server stops accepting connections; every request
 * under way is answered; a request that arrives on a connection already open is answered too, with `Connection: close`,
 * as is every answer not yet started, so each client learns its connection is ending from the answer itself. Once
 * nothing has been under way for `quietMs`, the connections left (idle ones) are closed; after `timeoutMs`, everything.
 *
 * Closing idle keep-alive connections at once (what http.Server#close does) would drop requests a busy server has not
 * yet read: their bytes wait in the socket while the event loop catches up, and the client sees a reset, not an answer.
 */
export function createDrain(server: Server, { quietMs = 500 } = {}) {
	const open = new Set<ServerResponse>()
	let stopping = false
	let draining = false
	let answered = 0
	let lastActivity = 0
	let wake: (() => void) | null = null

	const finished = (res: ServerResponse) => {
		if (!open.delete(res) || !draining) return
		answered++
		lastActivity = performance.now()
		wake?.()
	}

	function handle(listener: Listener): Listener {
		return (req, res) => {
			open.add(res)
			res.once('finish', () => finished(res))
			res.once('close', () => finished(res))
			if (draining) {
				lastActivity = performance.now()
				res.setHeader('connection', 'close')
			}
			listener(req, res)
		}
	}

	async function drain(timeoutMs: number): Promise<DrainResult> {
		const started = performance.now()
		stopping = true
		draining = true
		lastActivity = started
		const inFlight = open.size
		for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close')
		// Stops listening only: http.Server#close would also close the idle connections (see above).
		NetServer.prototype.close.call(server)
		const deadline = started + timeoutMs
		for (;;) {
			const now = performance.now()
			if (now >= deadline) break
			const quietUntil = lastActivity + quietMs
			if (open.size === 0 && now >= quietUntil) break
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, Math.max(1, Math.min(open.size ? deadline - now : quietUntil - now, deadline - now)))
				wake = () => {
					clearTimeout(timer)
					resolve()
				}
			})
			wake = null
		}
		const abandoned = open.size
		server.closeAllConnections()
		return { inFlight, answered, abandoned, ms: Math.round(performance.now() - started) }
	}

	/**
	 * Shutdown in two steps: from now on the instance says it is stopping (readiness fails), yet answers everything as
	 * usual for `delayMs`, the time a load balancer polling readiness takes to stop sending it new requests; then the
	 * drain. Draining at once would refuse the requests the balancer still sends meanwhile.
	 */
	async function drainAfter(delayMs: number, timeoutMs: number): Promise<DrainResult> {
		stopping = true
		if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
		return drain(timeoutMs)
	}

	return { handle, drain, drainAfter, stopping: () => stopping, inFlight: () => open.size }
}
