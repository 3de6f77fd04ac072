import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { currentRunName, databaseUrl, workerDatabase } from './databases.ts'

process.env.NODE_ENV = 'test'
process.env.SESSION_SECRET ??= 'test-session-secret'
// A current key and an older one, so re-sealing under a new key is tested too.
process.env.DATA_ENCRYPTION_KEYS ??= 'test:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=,old:ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7fH1+f4CBgoM='
process.env.PUBLIC_URL ??= 'http://localhost:3000'
// global-setup.ts gives the run a throwaway DATA_DIR; a file run on its own gets one here.
process.env.DATA_DIR ??= mkdtempSync(join(tmpdir(), 'hmh-vitest-'))
// This run's copy of the template for this worker (global-setup.ts made them, named for the run).
if (process.env.DATABASE_URL && !process.env.HMH_TEST_DB_SET) {
	process.env.DATABASE_URL = databaseUrl(process.env.DATABASE_URL, workerDatabase(currentRunName(), process.env.VITEST_POOL_ID ?? '1'))
	process.env.HMH_TEST_DB_SET = '1'
}
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = 'memory://'

// The schema's sealed columns take the app's data keys from here (db/schema/sealing.ts).
;(await import('../../app/utils/sealed-data.server.ts')).sealColumns()

const g = globalThis as { __testDbReady?: Promise<void> }
g.__testDbReady ??= (async () => {
	if (process.env.DATABASE_URL) return
	const { db } = await import('../../db/client.ts')
	const { prepareDatabase } = await import('../../db/prepare.ts')
	await prepareDatabase(db, { jobQueues: (await import('../../app/jobs/queues.ts')).JOB_QUEUES })
})()
await g.__testDbReady
