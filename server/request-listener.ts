import type { IncomingMessage, ServerResponse } from 'node:http'

export type FetchHandler = (request: Request, client: { address: string | undefined }) => Promise<Response>

/** Where a request that failed outside the app is logged: the app's logger, handed in by server.ts. */
export type ListenerLog = { error: (fields: { err: unknown }, message: string) => void }

export const BODY_TOO_LARGE = 'This request is too large.'

/**
 * Node's request as a Fetch request, and the Fetch response written back. The body is read with backpressure and a hard
 * byte cap, declared or chunked alike; once the app stops reading (a limit hit, a route that ignores the body), the
 * rest is discarded rather than buffered, so no body can fill memory or write into a closed stream.
 */
export function createRequestListener(handler: FetchHandler, { maxBodyBytes, log }: { maxBodyBytes: number; log: ListenerLog }) {
	const listener = async (req: IncomingMessage, res: ServerResponse) => {
		if (Number(req.headers['content-length']) > maxBodyBytes) {
			res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
			res.end(BODY_TOO_LARGE)
			req.resume()
			return
		}
		const abort = new AbortController()
		res.on('close', () => abort.abort())
		if (!FETCH_METHODS.has(req.method ?? '')) {
			// Fetch refuses TRACE, CONNECT and the like outright; no page or endpoint answers them.
			res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD, POST, PUT, PATCH, DELETE' })
			res.end('Method Not Allowed')
			req.resume()
			return
		}
		const url = requestUrl(req)
		if (!decodable(url.pathname)) {
			// The router would warn with the whole path (which can hold a code's token) and answer 400 anyway.
			res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
			res.end('Bad Request: this address is not valid.')
			req.resume()
			return
		}
		const body = hasBody(req) ? bodyStream(req, maxBodyBytes) : null
		let response: Response
		try {
			const request = new Request(url, {
				method: req.method,
				headers: headersOf(req),
				signal: abort.signal,
				...(body ? { body: body.stream, duplex: 'half' } : {}),
			} as RequestInit)
			response = await handler(request, { address: req.socket.remoteAddress })
		} catch (error) {
			log.error({ err: error }, 'request failed')
			response = new Response('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain' } })
		}
		body?.discardRest()
		const headers: string[] = []
		for (const [key, value] of response.headers) headers.push(key, value)
		res.writeHead(response.status, headers)
		if (response.body && req.method !== 'HEAD') await writeBody(response.body, res)
		else res.end()
	}
	return (req: IncomingMessage, res: ServerResponse) =>
		listener(req, res).catch((error: unknown) => {
			// Whatever went wrong, this request ends here and the server keeps answering the others.
			log.error({ err: error }, 'response failed')
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
			res.end()
		})
}

/**
 * Writes the answer's body with backpressure. A client that goes away mid-response only stops it: the body is
 * cancelled without a reason. (With one, as stream.pipeline gives, a page's stream, a PassThrough under React's render
 * that @react-router/node has already stopped listening to, is destroyed with that error and emits it to no listener:
 * the process would crash.)
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: ServerResponse) {
	const reader = body.getReader()
	let gone = false
	const leave = () => {
		if (res.writableFinished) return
		gone = true
		reader.cancel().catch(() => undefined)
	}
	res.once('close', leave)
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done || gone) break
			if (!res.write(value)) await writable(res)
			if (gone) break
		}
		if (!gone) res.end()
	} catch {
		// The body failed while being made: what was sent stays; the connection is closed so the client sees it short.
		if (!res.destroyed) res.destroy()
	} finally {
		res.off('close', leave)
	}
}

/**
 * Until the response can take more, or is gone. `once` for 'drain': the compression middleware hands drain listeners
 * to its zlib stream, where res.off could not find them again.
 */
function writable(res: ServerResponse) {
	return new Promise<void>((resolve) => {
		const done = () => {
			res.off('close', done)
			resolve()
		}
		res.once('drain', done)
		res.once('close', done)
	})
}

const FETCH_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

function hasBody(req: IncomingMessage) {
	return req.method !== 'GET' && req.method !== 'HEAD'
}

function decodable(path: string) {
	try {
		decodeURI(path)
		return true
	} catch {
		return false
	}
}

function requestUrl(req: IncomingMessage) {
	const path = req.url?.startsWith('/') ? req.url : '/'
	const host = req.headers.host && /^[\w.:[\]-]+$/.test(req.headers.host) ? req.headers.host : 'localhost'
	for (const base of [`http://${host}`, 'http://localhost']) {
		try {
			// Joined as text: a path like //elsewhere/x stays a path here, never a host.
			return new URL(`${base}${path}`)
		} catch {
			// A Host header that is no host (a port over 65535, say) is answered as localhost.
		}
	}
	return new URL('http://localhost/')
}

function headersOf(req: IncomingMessage) {
	const headers = new Headers()
	for (let i = 0; i < req.rawHeaders.length; i += 2) {
		try {
			headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
		} catch {
			// Node accepts a few header values Fetch refuses; such a header is dropped, not fatal.
		}
	}
	return headers
}

function bodyStream(req: IncomingMessage, limit: number) {
	let seen = 0
	let finished = false
	const stop = () => {
		finished = true
		req.resume()
	}
	const stream = new ReadableStream<Uint8Array>(
		{
			start(controller) {
				req.on('data', (chunk: Buffer) => {
					if (finished) return
					seen += chunk.byteLength
					if (seen > limit) {
						stop()
						controller.error(new Error(BODY_TOO_LARGE))
						return
					}
					controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
					if ((controller.desiredSize ?? 0) <= 0) req.pause()
				})
				req.on('end', () => {
					if (finished) return
					finished = true
					controller.close()
				})
				req.on('error', (error) => {
					if (finished) return
					finished = true
					controller.error(error)
				})
			},
			pull() {
				if (!finished) req.resume()
			},
			cancel: stop,
		},
		{ highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
	)
	return { stream, discardRest: () => !req.complete && stop() }
}
