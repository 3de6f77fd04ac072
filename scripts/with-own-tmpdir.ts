import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/*
 * Runs a command with a temporary folder of its own (TMPDIR, TMP, TEMP) and removes that folder when it ends, however
 * it ends: what the tests leave in the temporary folder (servers' data, databases, browser profiles) goes with it.
 * Usage: tsx scripts/with-own-tmpdir.ts <command> [args...]
 */

const [command, ...args] = process.argv.slice(2)
if (!command) {
	console.error('usage: with-own-tmpdir <command> [args...]')
	process.exit(2)
}
const dir = mkdtempSync(join(tmpdir(), 'hmh-test-run-'))
const remove = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
process.on('exit', remove)

const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, TMPDIR: dir, TMP: dir, TEMP: dir } })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
	process.exitCode = code ?? (signal ? 1 : 0)
})
