// Raw HTTP for the fuzz suite: node:http rather than fetch, so a body can be any bytes under any content type,
// sent with a declared length or chunked, and a connection the server closes early is an answer, not a crash.
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'

export type Wire = {
	method: string
	/** Path and query, sent as given (already percent-encoded where it should be). */
	path: string
	headers?: Record<string, string>
	body?: Buffer
}

export type Answer =
	| { ok: true; status: number; headers: IncomingHttpHeaders; body: Buffer; ms: number }
	| { ok: false; error: string; ms: number; unsent?: boolean }

export function createClient(baseURL: string, { concurrency = 12, timeoutMs = 30_000 } = {}) {
	const base = new URL(baseURL)
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency })

	function send(wire: Wire, { keepBody = true } = {}): Promise<Answer> {
		const started = performance.now()
		return new Promise((resolve) => {
			let settled = false
			const settle = (answer: Answer) => {
				if (settled) return
				settled = true
				resolve(answer)
			}
			const headers: Record<string, string> = { host: base.host, ...wire.headers }
			if (wire.body) headers['content-length'] = String(wire.body.byteLength)
			let req
			try {
				req = httpRequest(
					{ host: base.hostname, port: base.port, method: wire.method, path: wire.path, headers, agent, timeout: timeoutMs },
					(res) => {
						const chunks: Buffer[] = []
						res.on('data', (chunk: Buffer) => keepBody && chunks.push(chunk))
						res.on('end', () =>
							settle({
								ok: true,
								status: res.statusCode ?? 0,
								headers: res.headers,
								body: Buffer.concat(chunks),
								ms: performance.now() - started,
							}),
						)
						res.on('error', (error) => settle({ ok: false, error: `response: ${error.message}`, ms: performance.now() - started }))
					},
				)
			} catch (error) {
				// Node itself refused to send it (a character no HTTP client can put on the wire): nothing reached the server.
				return settle({ ok: false, error: `not sent: ${(error as Error).message}`, ms: 0, unsent: true })
			}
			req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
			req.on('error', (error) => settle({ ok: false, error: error.message, ms: performance.now() - started }))
			req.end(wire.body)
		})
	}

	/**
	 * A body of `totalBytes` streamed with Transfer-Encoding: chunked on a connection of its own. Resolves with the
	 * answer, or with `closed` when the server ends the connection before answering (also an acceptable refusal).
	 */
	function sendChunked(wire: Omit<Wire, 'body'> & { head: Buffer; totalBytes: number; chunkBytes?: number }) {
		const started = performance.now()
		const chunkBytes = wire.chunkBytes ?? 64 * 1024
		return new Promise<Answer & { sentBytes: number; closed?: boolean }>((resolve) => {
			let sent = 0
			let settled = false
			let responded = false
			const settle = (answer: Answer & { closed?: boolean }) => {
				if (settled) return
				settled = true
				resolve({ ...answer, sentBytes: sent })
				req.destroy()
			}
			const req = httpRequest(
				{
					host: base.hostname,
					port: base.port,
					method: wire.method,
					path: wire.path,
					headers: { host: base.host, ...wire.headers, 'transfer-encoding': 'chunked' },
					agent: false,
					timeout: timeoutMs,
				},
				(res) => {
					responded = true
					const chunks: Buffer[] = []
					res.on('data', (chunk: Buffer) => chunks.push(chunk))
					const done = () =>
						settle({
							ok: true,
							status: res.statusCode ?? 0,
							headers: res.headers,
							body: Buffer.concat(chunks),
							ms: performance.now() - started,
						})
					res.on('end', done)
					res.on('close', done)
				},
			)
			req.on('timeout', () => settle({ ok: false, error: `no answer within ${timeoutMs} ms`, ms: performance.now() - started }))
			// Writing on after the server answered and hung up fails (EPIPE, ECONNRESET): the answer is what counts then.
			req.on('error', (error) => responded || settle({ ok: false, error: error.message, ms: performance.now() - started, closed: true }))
			req.on(
				'close',
				() =>
					responded || settle({ ok: false, error: 'connection closed before an answer', ms: performance.now() - started, closed: true }),
			)
			const filler = Buffer.alloc(chunkBytes, 0x61)
			const pump = () => {
				while (!settled && sent < wire.totalBytes) {
					const piece = sent === 0 ? wire.head : filler.subarray(0, Math.min(chunkBytes, wire.totalBytes - sent))
					sent += piece.byteLength
					if (!req.write(piece)) return void req.once('drain', pump)
				}
				if (!settled) req.end()
			}
			pump()
		})
	}

	return { send, sendChunked, close: () => agent.destroy() }
}
