import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { log, runInLogScope, type LogScope } from '../app/utils/log.server.ts'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** A proxy's id is kept only in a shape that cannot smuggle anything into a log line. */
const REQUEST_ID = /^[\w.:-]{1,128}$/

/** What the access line and the metrics know of a request once it ended. */
export type FinishedRequest = { method: string; route: string; status: number; seconds: number }

/**
 * Gives every request an id (a trusted proxy's X-Request-Id, else a new one), echoed in the response and carried by
 * every line logged while it is answered, and writes one access line when it ends: method, route pattern (never the
 * path or query, which can hold tokens), status, duration. `route` is filled in by the router; a request it never
 * reached is "(static)" when a file answered it, else "(none)".
 */
export function withRequestLog(
	listener: (req: IncomingMessage, res: ServerResponse, scope: LogScope) => void,
	{ isTrustedProxy, onFinished }: { isTrustedProxy: (address: string) => boolean; onFinished?: (request: FinishedRequest) => void },
): Listener {
	return (req, res) => {
		const started = performance.now()
		const offered = req.headers['x-request-id']
		const trusted = typeof offered === 'string' && REQUEST_ID.test(offered) && isTrustedProxy(req.socket.remoteAddress ?? '')
		const scope: LogScope = { requestId: trusted ? offered : randomUUID() }
		res.setHeader('x-request-id', scope.requestId!)
		res.once('close', () => {
			const finished = {
				method: req.method ?? '',
				route: scope.route ?? '(none)',
				status: res.statusCode,
				seconds: (performance.now() - started) / 1000,
			}
			onFinished?.(finished)
			const { seconds, ...line } = finished
			runInLogScope(scope, () =>
				log.info({ ...line, ms: Math.round(seconds * 1000), ...(res.writableFinished ? {} : { unfinished: true }) }, 'request'),
			)
		})
		runInLogScope(scope, () => listener(req, res, scope))
	}
}
