import { execFile } from 'node:child_process'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { expect, test } from 'vitest'
import { REPORT_MARKERS } from './error-reporting.fixture.ts'

const root = join(import.meta.dirname, '..')

/** A Sentry-compatible ingest endpoint on loopback: keeps each envelope it is sent. */
async function ingest() {
	const envelopes: string[] = []
	const server = createServer((req: IncomingMessage, res) => {
		const chunks: Buffer[] = []
		req.on('data', (chunk: Buffer) => chunks.push(chunk))
		req.on('end', () => {
			const body = Buffer.concat(chunks)
			envelopes.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8'))
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return { port: (server.address() as AddressInfo).port, envelopes, close: () => new Promise((resolve) => server.close(resolve)) }
}

test('with SENTRY_DSN a logged error reaches the service with its request id and route, and nothing personal', async () => {
	const service = await ingest()
	const markers = REPORT_MARKERS
	try {
		await new Promise<void>((resolve, reject) =>
			execFile(
				process.execPath,
				['--import', 'tsx', join(import.meta.dirname, 'error-reporting.fixture.ts')],
				{
					cwd: root,
					env: {
						...process.env,
						SENTRY_DSN: `http://public@127.0.0.1:${service.port}/1`,
						// Only a failing statement is needed: PostgreSQL when the run has one (quicker to open than PGlite).
						...(process.env.DATABASE_URL ? {} : { PGLITE_DIR: 'memory://' }),
						LOG_LEVEL: 'error',
					},
					timeout: 60_000,
				},
				(error) => (error ? reject(error) : resolve()),
			),
		)
		const events = service.envelopes.filter((envelope) => envelope.includes('"type":"event"') || envelope.includes('"exception"'))
		expect(events).toHaveLength(2)
		const all = service.envelopes.join('\n')
		for (const marker of Object.values(markers)) expect(all).not.toContain(marker)
		expect(all).toContain('"requestId":"req-42"')
		expect(all).toContain('"route":"/api/donations"')
		expect(all).toContain('22P02')
		expect(all).toContain('no profile for [email]')
		expect(all).not.toContain('a warning is not reported')
	} finally {
		await service.close()
	}
}, 90_000)
