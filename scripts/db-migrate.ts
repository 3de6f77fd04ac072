import { scriptDatabase } from './script-database.ts'

// `npm run db:migrate`: what the server does at start unless MIGRATE_ON_START=false (migrations, job queues, seeding
// an empty database), as a one-off step of a deploy. Safe beside running instances: they and it take turns under the
// same lock. Exits 0 when the database is ready, 1 with one line on standard error when not.

const { db, closeDb, prepareDatabase } = await scriptDatabase('it migrated it at start; stop it first to run this.')
try {
	const demo = ['true', '1'].includes(process.env.SEED_DEMO ?? '') && process.env.NODE_ENV !== 'production'
	const { hashPassword } = await import('../app/utils/password.server.ts')
	const { JOB_QUEUES } = await import('../app/jobs/queues.ts')
	const { migrations, seeded } = await prepareDatabase(db, { jobQueues: JOB_QUEUES, demo: demo ? { hashPassword } : undefined })
	const done = [
		migrations ? `${migrations} migration${migrations === 1 ? '' : 's'} applied` : 'migrations up to date',
		...(seeded ? ['seeded'] : []),
	]
	console.log(`Database ready: ${done.join(', ')}.`)
} catch (error) {
	console.error(`Database not migrated: ${reason(error)}`)
	process.exitCode = 1
} finally {
	await closeDb().catch(() => {})
}

/** One line: the database's own message (a failed query's text and parameters stay out), or the error's first line. */
function reason(error: unknown): string {
	if (!(error instanceof Error)) return String(error)
	if (error.cause instanceof Error) return reason(error.cause)
	const code = (error as { code?: unknown }).code
	return `${error.message.split('\n')[0]}${typeof code === 'string' ? ` (${code})` : ''}`
}
