// Starts the built app for the browser tests on a database of its own, after writing the fixtures the tests use
// (sticker codes and accounts), so the tests need not open the database while the app runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'

const E2E_DB = process.env.E2E_DB_NAME ?? 'hmh_e2e'
// Each server here is one instance on loopback with a DATA_DIR of its own: on PostgreSQL too, its secrets may be the
// ones generated there, and its address is http (server.ts refuses both otherwise).
process.env.SINGLE_INSTANCE ??= 'true'
process.env.ALLOW_INSECURE_PUBLIC_URL ??= 'true'
// Uploads (and the embedded database) live in a folder of this run's own, removed when the server stops (Playwright
// sends SIGTERM, and server.ts exits once the database is closed); a folder given in E2E_DATA_DIR is its giver's.
if (process.env.E2E_DATA_DIR) {
	process.env.DATA_DIR = process.env.E2E_DATA_DIR
} else {
	const dataDir = mkdtempSync(join(tmpdir(), 'hmh-e2e-'))
	process.env.DATA_DIR = dataDir
	process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }))
}
if (process.env.DATABASE_URL) {
	const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} })
	await admin.unsafe(`drop database if exists ${E2E_DB} with (force)`)
	await admin.unsafe(`create database ${E2E_DB}`)
	await admin.end()
	const url = new URL(process.env.DATABASE_URL)
	url.pathname = `/${E2E_DB}`
	process.env.DATABASE_URL = url.toString()
} else {
	process.env.PGLITE_DIR = join(process.env.DATA_DIR, 'db')
}

const { db } = await import('../../db/client.ts')
const { prepareDatabase } = await import('../../db/prepare.ts')
const { createStickerCodes } = await import('../../app/domain/qr/codes.server.ts')
const { createFixtureUsers } = await import('./fixture-users.ts')
;(await import('../../app/utils/sealed-data.server.ts')).sealColumns()
await prepareDatabase(db, { jobQueues: (await import('../../app/jobs/queues.ts')).JOB_QUEUES })
const codes = await createStickerCodes(100)
// A few accounts for the fuzz suite and the second instances; the journeys make their own (tests/e2e/fixtures.ts).
const users = await createFixtureUsers(db, 4)
const legacyUsers = await createFixtureUsers(db, 4, { prefix: 'legacy', isGrandfathered: true })
// Accounts whose address was confirmed (the identity provider's journey links to them by e-mail).
await createFixtureUsers(db, 2, { prefix: 'verified', emailVerified: true })
// The owner (OWNER_EMAIL in the config): the owner journey's alone.
await createFixtureUsers(db, 1, { prefix: 'owner' })
const fixturesFile = process.env.E2E_FIXTURES ?? 'tests/e2e/.fixtures.json'
writeFileSync(fixturesFile, JSON.stringify({ codes, users, legacyUsers }, null, 1))
// Which stickers and legacy accounts the journeys have taken: none yet.
rmSync(`${fixturesFile}.taken`, { recursive: true, force: true })
// Nor any secret (server-log-check.ts reads what this run's journeys add).
if (process.env.E2E_SERVER_LOG) rmSync(`${process.env.E2E_SERVER_LOG}.secrets`, { force: true })

// With E2E_SERVER_LOG, the server runs as a process of its own whose stdout (its log) goes to that file, for the check
// at the end of the run that nothing personal reached it (server-log-check.ts); else here, as `npm start` would.
if (process.env.E2E_SERVER_LOG) {
	const { closeDb } = await import('../../db/client.ts')
	await closeDb()
	const { spawn } = await import('node:child_process')
	const { openSync } = await import('node:fs')
	const server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
		stdio: ['ignore', openSync(process.env.E2E_SERVER_LOG, 'w'), 'inherit'],
	})
	for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal))
	server.on('exit', (code) => process.exit(code ?? 1))
} else {
	await import('../../server.ts')
}
