import type { IncomingMessage, ServerResponse } from 'node:http'
import { checkHealth, type Health } from '../app/domain/housekeeping/health.server.ts'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** An orchestrator gives a probe about a second by default: a part that has not answered in 2 s is not ready. */
export const READY_TIMEOUT_MS = 2000

export type Readiness = { status: 'draining' } | (Omit<Health, 'status'> & { status: Health['status']; migrations: 'done' | 'pending' })

/**
 * `/livez` and `/readyz`, answered before compression, static files and the router: a probe comes every few seconds
 * from every balancer and orchestrator, and must cost nothing it does not need (no middleware, no rate limit, no page
 * view). `/livez` does no I/O: it says the process runs and answers. `/readyz` says whether this instance should get
 * traffic: the database prepared (migrations applied) and reachable, the file storage reachable, and not stopping.
 * `/healthz` stays the router's resource route, as it was.
 */
export function createProbes({
	isStopping,
	check = () => checkHealth({ timeoutMs: READY_TIMEOUT_MS }),
}: {
	/** True from SIGTERM on: readiness fails at once, before the drain. */
	isStopping: () => boolean
	check?: () => Promise<Health>
}) {
	let prepared = false

	async function readiness(): Promise<Readiness> {
		// No I/O once stopping: the answer is known, and the database may be closing.
		if (isStopping()) return { status: 'draining' }
		const health = await check().catch((): Health => ({ status: 'unavailable', database: 'unreachable', storage: 'unreachable' }))
		const migrations = prepared ? 'done' : 'pending'
		return { ...health, status: health.status === 'ok' && prepared ? 'ok' : 'unavailable', migrations }
	}

	function handle(next: Listener): Listener {
		return (req, res) => {
			const path = req.url?.split('?', 1)[0]
			if (path !== '/livez' && path !== '/readyz') return next(req, res)
			if (req.method !== 'GET' && req.method !== 'HEAD') {
				answer(req, res, 405, 'Method Not Allowed', { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' })
				return
			}
			if (path === '/livez') {
				answer(req, res, 200, 'ok', { 'content-type': 'text/plain; charset=utf-8' })
				return
			}
			void readiness().then((state) => {
				const ok = state.status === 'ok'
				answer(req, res, ok ? 200 : 503, JSON.stringify(state), {
					'content-type': 'application/json',
					...(state.status === 'unavailable' ? { 'retry-after': '5' } : {}),
				})
			})
		}
	}

	return {
		handle,
		readiness,
		/** The database is migrated and its job queues made (db/prepare.ts): from now on the instance can be ready. */
		databasePrepared: () => void (prepared = true),
	}
}

function answer(req: IncomingMessage, res: ServerResponse, status: number, body: string, headers: Record<string, string>) {
	res.writeHead(status, { ...headers, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) })
	res.end(req.method === 'HEAD' ? undefined : body)
	req.resume()
}
