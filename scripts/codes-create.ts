import { parseArgs } from 'node:util'
import { MAX_BATCH } from '../app/domain/qr/batch.ts'
import { embeddedDatabaseHolder } from '../db/embedded-lock.ts'

// Prints `PIN<TAB>scan URL` per code on standard output and nothing else; messages go to standard error.
const { values } = parseArgs({ options: { count: { type: 'string', short: 'n' } } })
const count = Number(values.count)
if (!Number.isInteger(count) || count < 1 || count > MAX_BATCH) {
	console.error(`Usage: npm run codes:create -- --count N   (N from 1 to ${MAX_BATCH})`)
	process.exit(2)
}

// Checked before the database module is loaded: loading it opens the embedded database.
const holder = process.env.DATABASE_URL ? null : embeddedDatabaseHolder(process.env.DATA_DIR ?? '.data')
if (holder) {
	console.error(`The server (pid ${holder}) is using the embedded database: stop it first, or set DATABASE_URL.`)
	process.exit(1)
}

const { db, closeDb } = await import('../db/client.ts')
const { prepareDatabase } = await import('../db/prepare.ts')
const { createStickerCodes } = await import('../app/domain/qr/codes.server.ts')
;(await import('../app/utils/sealed-data.server.ts')).sealColumns()
try {
	await prepareDatabase(db, { jobQueues: (await import('../app/jobs/queues.ts')).JOB_QUEUES })
	const codes = await createStickerCodes(count)
	process.stdout.write(codes.map((c) => `${c.pin}\t${c.scanUrl}\n`).join(''))
} catch (error) {
	const message = error instanceof Error ? error.message : String(error)
	console.error(`Could not create codes: ${message}`)
	process.exitCode = 1
} finally {
	await closeDb()
}
