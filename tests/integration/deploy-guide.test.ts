import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import postgres from 'postgres'
import { afterAll, describe, expect, test } from 'vitest'
import { currentRunName, databaseUrl, workerDatabase } from '../setup/databases.ts'

const execute = promisify(execFile)
const root = join(import.meta.dirname, '../..')

/** The guide's `bash` blocks, in order: the ones it promises are run as written. */
export function testedBlocks(markdown: string) {
	return [...markdown.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((match) => match[1]!)
}

describe.skipIf(!process.env.DATABASE_URL)("docs/deploy.md's tested blocks", () => {
	const run = process.env.DATABASE_URL ? currentRunName() : ''
	const [live, drill] = [workerDatabase(run, 911), workerDatabase(run, 912)]
	const admin = process.env.DATABASE_URL ? postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} }) : null
	const dataDir = mkdtempSync(join(tmpdir(), 'hmh-deploy-guide-'))
	afterAll(async () => {
		for (const name of [live, drill]) await admin?.unsafe(`drop database if exists ${name} with (force)`)
		await admin?.end()
		rmSync(dataDir, { recursive: true, force: true })
	})

	test(
		'run as written, one after the other, in one shell: secrets, the configuration check, a backup and a restore drill',
		{ timeout: 240_000 },
		async () => {
			const blocks = testedBlocks(readFileSync(join(root, 'docs/deploy.md'), 'utf8'))
			expect(blocks.length).toBeGreaterThanOrEqual(3)
			for (const name of [live, drill]) {
				await admin!.unsafe(`drop database if exists ${name} with (force)`)
				await admin!.unsafe(`create database ${name}`)
			}
			const {
				DATABASE_URL: _url,
				SESSION_SECRET: _secret,
				DATA_ENCRYPTION_KEYS: _keys,
				BACKUP_DIR: _dir,
				S3_BUCKET: _bucket,
				PGLITE_DIR: _pglite,
				...rest
			} = process.env
			// What the guide takes as given: the server's database (migrated, as after a first start), an empty one for the
			// drill, and the server's DATA_DIR.
			const prelude = `set -euo pipefail\nnpm run -s db:migrate >/dev/null\n`
			const script = prelude + blocks.join('\n')
			const { stdout, stderr } = await execute('bash', ['-c', script], {
				cwd: root,
				env: {
					...rest,
					NODE_ENV: 'production',
					DATABASE_URL: databaseUrl(process.env.DATABASE_URL!, live),
					DRILL_DATABASE_URL: databaseUrl(process.env.DATABASE_URL!, drill),
					DATA_DIR: dataDir,
					SESSION_SECRET: 'guide-session-secret-0123456789abcdef',
					DATA_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
				},
				maxBuffer: 16 * 1024 * 1024,
			}).catch((error: { stdout?: string; stderr?: string; message: string }) => {
				throw new Error(`a block failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`)
			})
			expect(stdout).toMatch(/session secret: 44 characters, data key: k1, admin token: \d+ characters/)
			expect(stdout).toContain('configuration OK')
			expect(stdout).toMatch(/Database ready/)
			expect(stderr).not.toMatch(/error/i)
		},
	)
})
