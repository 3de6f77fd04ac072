import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { TEMPLATE_DB, WORKER_DBS, databaseUrl } from './databases.ts'

/**
 * One throwaway DATA_DIR for the run (uploads and other embedded data, never the developer's .data/), removed at the
 * end; with PostgreSQL, one migrated and seeded template that each worker gets a copy of.
 */
export default async function setup() {
	const dataDir = process.env.DATA_DIR ? null : mkdtempSync(join(tmpdir(), 'hmh-vitest-'))
	if (dataDir) process.env.DATA_DIR = dataDir
	const teardown = () => {
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	}
	const base = process.env.DATABASE_URL
	if (!base) return teardown
	const admin = postgres(base, { max: 1, onnotice: () => {} })
	try {
		await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`)
		await admin.unsafe(`create database ${TEMPLATE_DB}`)
		const { connect } = await import('../../db/client.ts')
		const { prepareDatabase } = await import('../../db/prepare.ts')
		const template = connect(databaseUrl(base, TEMPLATE_DB), '')
		await prepareDatabase(template.db)
		await template.close()
		for (let i = 1; i <= WORKER_DBS; i++) {
			await admin.unsafe(`drop database if exists hmh_test_${i} with (force)`)
			await admin.unsafe(`create database hmh_test_${i} template ${TEMPLATE_DB}`)
		}
	} finally {
		await admin.end()
	}
	return teardown
}
