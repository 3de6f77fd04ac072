// Run by error-reporting.test.ts in a process of its own (the SDK, once started, stays for the life of the process):
// logs a failed statement and an error quoting an address, inside a request's scope, with SENTRY_DSN pointing at the
// test's endpoint.
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'

export const REPORT_MARKERS = { email: 'marker.donor@example.org', name: 'Marisol Quintero-Vale', allergy: 'Zebraflower pollen' }

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { db, closeDb } = await import('../db/client.ts')
	const { log, runInLogScope } = await import('../app/utils/log.server.ts')
	const { startErrorReporting } = await import('./error-reporting.ts')
	const stop = await startErrorReporting(process.env.SENTRY_DSN!, { release: 'test', environment: 'test' })
	await runInLogScope({ requestId: 'req-42', route: '/api/donations' }, async () => {
		try {
			await db.execute(sql`select ${REPORT_MARKERS.email}::int, ${REPORT_MARKERS.name}, ${REPORT_MARKERS.allergy}`)
		} catch (error) {
			log.error({ err: error, email: REPORT_MARKERS.email }, 'request failed')
		}
		log.error({ err: new Error(`no profile for ${REPORT_MARKERS.email}`) }, 'request failed')
		log.warn({ err: new Error('a warning is not reported') }, 'warned')
	})
	await stop()
	await closeDb()
}
