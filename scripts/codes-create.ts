import { parseArgs } from 'node:util'

// Prints `PIN<TAB>scan URL` per code on standard output and nothing else; messages go to standard error.
const { values } = parseArgs({ options: { count: { type: 'string', short: 'n' } } })
const count = Number(values.count)
if (!Number.isInteger(count) || count < 1 || count > 1000) {
	console.error('Usage: npm run codes:create -- --count N   (N from 1 to 1000)')
	process.exit(2)
}

const { existsSync, readFileSync } = await import('node:fs')
const { join } = await import('node:path')
const lock = join(process.env.DATA_DIR ?? '.data', 'server.pid')
if (!process.env.DATABASE_URL && existsSync(lock)) {
	const pid = Number(readFileSync(lock, 'utf8'))
	let running = false
	try {
		process.kill(pid, 0)
		running = true
	} catch {
		running = false
	}
	if (running) {
		console.error(`The server (pid ${pid}) is using the embedded database: stop it first, or set DATABASE_URL.`)
		process.exit(1)
	}
}

const { db, closeDb } = await import('../db/client.ts')
const { prepareDatabase } = await import('../db/prepare.ts')
const { createStickerCodes } = await import('../app/domain/qr/codes.server.ts')
try {
	await prepareDatabase(db)
	const codes = await createStickerCodes(count)
	process.stdout.write(codes.map((c) => `${c.pin}\t${c.scanUrl}\n`).join(''))
} catch (error) {
	const message = error instanceof Error ? error.message : String(error)
	console.error(`Could not create codes: ${message}`)
	process.exitCode = 1
} finally {
	await closeDb()
}
