import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { embeddedDatabaseHolder, holdEmbeddedDatabase } from './embedded-lock.ts'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const dataDir = () => {
	const dir = mkdtempSync(join(tmpdir(), 'hmh-lock-'))
	dirs.push(dir)
	return dir
}

test('a live process holding the embedded database is named; a stale lock or our own is not', async () => {
	const dir = dataDir()
	expect(embeddedDatabaseHolder(dir)).toBeNull()
	const release = holdEmbeddedDatabase(dir)
	expect(embeddedDatabaseHolder(dir)).toBeNull()
	release()
	const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'])
	try {
		writeFileSync(join(dir, 'server.pid'), String(other.pid))
		expect(embeddedDatabaseHolder(dir)).toBe(other.pid)
	} finally {
		other.kill()
		await new Promise((resolve) => other.once('exit', resolve))
	}
	expect(embeddedDatabaseHolder(dir)).toBeNull()
})
