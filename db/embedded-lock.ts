import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// PGlite allows one process per data directory: the server holds this file while it runs, and tools check it first.
const lockFile = (dataDir: string) => join(dataDir, 'server.pid')

/** The pid of another live process using the embedded database in `dataDir`, or null. */
export function embeddedDatabaseHolder(dataDir: string): number | null {
	const file = lockFile(dataDir)
	if (!existsSync(file)) return null
	const pid = Number(readFileSync(file, 'utf8'))
	return pid && pid !== process.pid && isRunning(pid) ? pid : null
}

/** Marks the embedded database as this process's; the returned function lets it go. */
export function holdEmbeddedDatabase(dataDir: string) {
	mkdirSync(dataDir, { recursive: true })
	writeFileSync(lockFile(dataDir), String(process.pid))
	return () => rmSync(lockFile(dataDir), { force: true })
}

function isRunning(pid: number) {
	try {
		process.kill(pid, 0)
		return true
	} catch {
		return false
	}
}
