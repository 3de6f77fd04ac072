import { parseArgs } from 'node:util'
import { MAX_BATCH } from '../app/domain/qr/batch.ts'
import { scriptDatabase } from './script-database.ts'

// Prints `PIN<TAB>scan URL` per code on standard output and nothing else; messages go to standard error.
const { values } = parseArgs({ options: { count: { type: 'string', short: 'n' } } })
const count = Number(values.count)
if (!Number.isInteger(count) || count < 1 || count > MAX_BATCH) {
	console.error(`Usage: npm run codes:create -- --count N   (N from 1 to ${MAX_BATCH})`)
	process.exit(2)
}

const { db, closeDb, prepareDatabase } = await scriptDatabase()
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
