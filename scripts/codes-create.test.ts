import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'

const run = promisify(execFile)
const dirs: string[] = []
afterAll(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))
function tempDataDir() {
	const dir = mkdtempSync(join(tmpdir(), 'hmh-codes-'))
	dirs.push(dir)
	return dir
}

function env(dataDir: string) {
	const { DATABASE_URL: _ignored, ...rest } = process.env
	return { ...rest, DATA_DIR: dataDir, PGLITE_DIR: join(dataDir, 'db'), PUBLIC_URL: 'https://hmh.example' }
}

test('codes:create prints one `PIN<TAB>scan URL` line per code and nothing else', { timeout: 150_000 }, async () => {
	const dir = tempDataDir()
	const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/codes-create.ts', '--count', '3'], { env: env(dir) })
	const lines = stdout.trimEnd().split('\n')
	expect(lines).toHaveLength(3)
	for (const line of lines) expect(line).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}\thttps:\/\/hmh\.example\/scan\/[A-Za-z0-9_-]{24}$/)
	expect(new Set(lines.map((l) => l.split('\t')[0])).size).toBe(3)
})

test('codes:create refuses a bad count and a running server on the embedded database', { timeout: 60_000 }, async () => {
	const dir = tempDataDir()
	await expect(
		run(process.execPath, ['--import', 'tsx', 'scripts/codes-create.ts', '--count', '0'], { env: env(dir) }),
	).rejects.toMatchObject({ code: 2, stdout: '' })
	writeFileSync(join(dir, 'server.pid'), String(process.pid))
	await expect(
		run(process.execPath, ['--import', 'tsx', 'scripts/codes-create.ts', '--count', '1'], { env: env(dir) }),
	).rejects.toMatchObject({
		code: 1,
		stdout: '',
		stderr: expect.stringContaining('stop it first'),
	})
})
