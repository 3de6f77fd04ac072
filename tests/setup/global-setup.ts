import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { TEST_RUN_ENV, WORKER_DBS, databaseUrl, newRunName, runDatabaseStartedAt, templateDatabase, workerDatabase } from './databases.ts'

/** A run's databases left behind this long ago (an interrupted run skips its teardown) are dropped by the next run. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000

/**
 * One throwaway DATA_DIR for the run (uploads and other embedded data, never the developer's .data/), removed at the
 * end; with PostgreSQL, one migrated and seeded template that each worker gets a copy of, all named for this run
 * only (databases.ts) and dropped at the end.
 */
export default async function setup() {
	const dataDir = process.env.DATA_DIR ? null : mkdtempSync(join(tmpdir(), 'hmh-vitest-'))
	if (dataDir) process.env.DATA_DIR = dataDir
	const removeDataDir = () => {
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	}
	const base = process.env.DATABASE_URL
	if (!base) return removeDataDir
	const run = newRunName()
	// The workers are started after this, with this process's environment: setup-env.ts reads it there.
	process.env[TEST_RUN_ENV] = run
	const names = [templateDatabase(run), ...Array.from({ length: WORKER_DBS }, (_, i) => workerDatabase(run, i + 1))]
	const dropDatabases = async () => {
		const admin = postgres(base, { max: 1, onnotice: () => {} })
		try {
			for (const name of names) await admin.unsafe(`drop database if exists ${name} with (force)`)
		} finally {
			await admin.end()
		}
	}
	const admin = postgres(base, { max: 1, onnotice: () => {} })
	try {
		await dropStaleRuns(admin)
		await admin.unsafe(`create database ${templateDatabase(run)}`)
		const { connect } = await import('../../db/client.ts')
		const { prepareDatabase } = await import('../../db/prepare.ts')
		const template = connect(databaseUrl(base, templateDatabase(run)), '')
		try {
			await prepareDatabase(template.db, { jobQueues: (await import('../../app/jobs/queues.ts')).JOB_QUEUES })
		} finally {
			await template.close()
		}
		for (let i = 1; i <= WORKER_DBS; i++) await admin.unsafe(`create database ${workerDatabase(run, i)} template ${templateDatabase(run)}`)
	} catch (error) {
		await admin.end()
		await dropDatabases().catch(() => {})
		removeDataDir()
		throw error
	}
	await admin.end()
	return async () => {
		try {
			await dropDatabases()
		} finally {
			removeDataDir()
		}
	}
}

/** Databases of runs that started over a day ago and nobody uses; one still in use stays (the drop is refused). */
async function dropStaleRuns(admin: postgres.Sql) {
	const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'hmh\\_test\\_%'`
	for (const { datname } of rows) {
		const startedAt = runDatabaseStartedAt(datname)
		if (!startedAt || Date.now() - startedAt.getTime() < STALE_AFTER_MS) continue
		await admin.unsafe(`drop database if exists ${datname}`).catch(() => {})
	}
}
