import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import compression from 'compression'
import { closeDb } from '#db/client.ts'
import { pickLanguage } from '#app/domain/responder/labels.ts'
import { renderMessagePage, renderResponderPage } from '#app/domain/responder/page.ts'
import { loadResponderView, recordScan } from '#app/domain/responder/responder.server.ts'
import { env } from '#app/utils/env.server.ts'
import { sealColumns } from '#app/utils/sealed-data.server.ts'

/*
 * The baseline of `npm run bench:scan`: a hand-written node:http server doing what GET /scan/{token} does in
 * the app (the same domain calls, so the same SELECT, the same INSERT and the same HTML bytes), without React Router.
 *
 *   PORT                 where to listen
 *   BENCH_PLAIN_GZIP     'middleware' (default): the `compression` middleware, exactly as server.ts uses it;
 *                        'sync': zlib.gzipSync of the whole page
 */

sealColumns()

const gzipMode = process.env.BENCH_PLAIN_GZIP === 'sync' ? 'sync' : 'middleware'

// The scan loader's headers (app/routes/scan/scan.ts), so both servers send the same response.
const pageHeaders = {
	'content-type': 'text/html; charset=utf-8',
	'cache-control': 'no-store',
	'x-robots-tag': 'noindex, nofollow',
	'content-security-policy':
		"default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	vary: 'Accept-Language',
}

function send(req: IncomingMessage, res: ServerResponse, status: number, html: string, lang: string) {
	res.statusCode = status
	for (const [name, value] of Object.entries(pageHeaders)) res.setHeader(name, value)
	res.setHeader('content-language', lang)
	if (gzipMode === 'sync' && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
		const body = gzipSync(html)
		res.setHeader('content-encoding', 'gzip')
		res.appendHeader('vary', 'Accept-Encoding')
		res.setHeader('content-length', body.length)
		res.end(body)
		return
	}
	res.end(html)
}

async function scan(req: IncomingMessage, res: ServerResponse) {
	const url = new URL(req.url ?? '/', 'http://localhost')
	const match = /^\/scan\/([^/]+)$/.exec(url.pathname)
	if (req.method !== 'GET' || !match) {
		res.statusCode = 404
		res.end('Not found')
		return
	}
	const token = decodeURIComponent(match[1]!)
	const lang = pickLanguage(req.headers['accept-language'] ?? null, url.searchParams.get('lang'))
	const view = await loadResponderView(token)
	if (view.state === 'unknown') return send(req, res, 404, renderMessagePage(lang, 'notFound', env.PUBLIC_URL), lang)
	await recordScan(
		view.codeId,
		{
			userAgent: req.headers['user-agent'] ?? null,
			address: req.socket.remoteAddress ?? '127.0.0.1',
			trustedHeaders: null,
			viewerIsOwner: false,
		},
		view.state === 'active' ? { profileId: view.profile.id, ownerId: view.ownerId, codeName: view.codeName } : null,
	)
	if (view.state !== 'active') return send(req, res, 200, renderMessagePage(lang, view.state, env.PUBLIC_URL), lang)
	send(req, res, 200, renderResponderPage(view.profile, lang, token), lang)
}

const compress = compression()
const server = createServer((req, res) => {
	const handle = () => {
		scan(req, res).catch((error: unknown) => {
			console.error(error)
			if (!res.headersSent) res.statusCode = 500
			res.end()
		})
	}
	if (gzipMode === 'middleware') compress(req as never, res as never, handle)
	else handle()
})

server.listen(env.PORT, '127.0.0.1', () => {
	console.log(`plain node:http scan server (gzip: ${gzipMode}) at http://127.0.0.1:${env.PORT}`)
})

let stopping = false
async function shutdown() {
	if (stopping) return
	stopping = true
	server.close()
	server.closeAllConnections()
	await closeDb()
	process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
