import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { listBackups, uploadBackup } from '#app/adapters/backup-place.server.ts'
import { createLocalStorage } from '#app/adapters/storage.server.ts'
import { configFromEnv, createBackup, findBackup, keepSetting, restoreBackup } from './backup-kit.ts'

const folders: string[] = []
afterAll(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))
function folder() {
	const path = mkdtempSync(join(tmpdir(), 'hmh-backup-bucket-'))
	folders.push(path)
	return path
}
function write(root: string, path: string, content: string | Uint8Array = path) {
	mkdirSync(dirname(join(root, path)), { recursive: true })
	writeFileSync(join(root, path), content)
}
const quiet = () => {}
const names = async (config: ReturnType<typeof configFromEnv>) => (await listBackups(config.place)).map((b) => b.name)
/** A stand-in for an older backup: enough for listing and pruning. */
function oldBackup(root: string, name: string) {
	write(root, `${name}/manifest.json`, '{}')
	return join(root, name)
}

/** A DATA_DIR with an embedded database, its key files and one upload, as the app leaves it. */
async function embeddedDataDir() {
	const dataDir = folder()
	const pg = new PGlite(join(dataDir, 'db'))
	await pg.exec(`create table probe (id int primary key, note text); insert into probe values (1, 'kept')`)
	await pg.close()
	const secrets = { 'session-secret': randomBytes(32), 'data-encryption-key': randomBytes(32) }
	for (const [path, bytes] of Object.entries(secrets)) write(dataDir, path, bytes)
	const document = { key: 'users/u1/document/a.pdf', body: new Uint8Array(randomBytes(300)), contentType: 'application/pdf' }
	await createLocalStorage(join(dataDir, 'uploads')).put(document.key, document.body, document.contentType)
	return { dataDir, secrets, document }
}

// One source for every test: an embedded database takes seconds to make and to open.
let source: Awaited<ReturnType<typeof embeddedDataDir>>
beforeAll(async () => {
	source = await embeddedDataDir()
})

describe('backups in a bucket (BACKUP_S3_BUCKET)', () => {
	let server: S3rver
	let bucketEnv: Record<string, string>
	beforeAll(async () => {
		server = new S3rver({
			port: 0,
			address: '127.0.0.1',
			silent: true,
			directory: folder(),
			configureBuckets: [{ name: 'backups', configs: [] }],
		})
		const { port } = await server.run()
		// The app's S3 connection settings; S3_BUCKET stays unset (uploads in DATA_DIR), the backups go to the bucket.
		bucketEnv = {
			BACKUP_S3_BUCKET: 'backups',
			BACKUP_S3_PREFIX: 'hmh/nightly',
			S3_ENDPOINT: `http://127.0.0.1:${port}`,
			S3_ACCESS_KEY_ID: 'S3RVER',
			S3_SECRET_ACCESS_KEY: 'S3RVER',
			S3_FORCE_PATH_STYLE: 'true',
		}
	})
	afterAll(() => server?.close())

	test('npm run backup into the bucket, then npm run restore of the newest from it: the data is back', { timeout: 60_000 }, async () => {
		const { dataDir, secrets, document } = source
		const config = configFromEnv({ DATA_DIR: dataDir, ...bucketEnv, BACKUP_KEEP: '2' })
		expect(config.place).toMatchObject({ kind: 's3', prefix: 'hmh/nightly/', s3: { bucket: 'backups', forcePathStyle: true } })
		// Two older ones there already: with BACKUP_KEEP=2 the oldest goes once the new one is in.
		const local = folder()
		for (const name of ['2026-11-20T030000Z', '2026-11-21T030000Z']) await uploadBackup(config.place as never, name, oldBackup(local, name))

		const lines: string[] = []
		const made = await createBackup(config, { log: (line) => lines.push(line), now: new Date('2026-11-27T03:00:00Z') })
		expect(made.folder).toBe('s3://backups/hmh/nightly/2026-11-27T030000Z')
		expect(made.manifest.database).toMatchObject({ kind: 'pglite' })
		expect(lines).toContain('BACKUP_KEEP=2: deleted the older 2026-11-20T030000Z from s3://backups/hmh/nightly/.')
		expect(await names(config)).toEqual(['2026-11-21T030000Z', '2026-11-27T030000Z'])
		// Written here first, streamed up, then removed here.
		expect(readdirSync(config.backupDir)).toEqual([])

		const targetDir = folder()
		const target = configFromEnv({ DATA_DIR: targetDir, ...bucketEnv })
		const found = await findBackup(target, undefined)
		expect(found).toMatchObject({ location: made.folder, at: new Date('2026-11-27T03:00:00Z') })
		try {
			await restoreBackup(target, found.folder, { log: quiet, shownAs: found.location })
		} finally {
			await found.done()
		}
		expect(existsSync(found.folder)).toBe(false)
		const restored = new PGlite(join(targetDir, 'db'))
		try {
			expect((await restored.query('select id, note from probe')).rows).toEqual([{ id: 1, note: 'kept' }])
		} finally {
			await restored.close()
		}
		for (const [path, bytes] of Object.entries(secrets)) expect(readFileSync(join(targetDir, path))).toEqual(bytes)
		expect(await createLocalStorage(join(targetDir, 'uploads')).get(document.key)).toMatchObject({ body: document.body })

		// A named one, by name or by address; an unknown name says what is there.
		for (const which of ['2026-11-27T030000Z', 's3://backups/hmh/nightly/2026-11-27T030000Z/']) {
			const named = await findBackup(target, which)
			await named.done()
			expect(named.location).toBe(made.folder)
		}
		await expect(findBackup(target, '2026-11-22T030000Z')).rejects.toThrow(/no backup 2026-11-22T030000Z[\s\S]*2026-11-27T030000Z/)
	})

	test('a failed backup deletes nothing and leaves nothing, in the bucket or here', async () => {
		const dataDir = folder() // no database in it: the backup fails
		const config = configFromEnv({ DATA_DIR: dataDir, ...bucketEnv, BACKUP_S3_PREFIX: 'failing', BACKUP_KEEP: '1' })
		const local = folder()
		for (const name of ['2026-11-20T030000Z', '2026-11-21T030000Z']) await uploadBackup(config.place as never, name, oldBackup(local, name))
		await expect(createBackup(config, { log: quiet })).rejects.toThrow(/no embedded database/)
		expect(await names(config)).toEqual(['2026-11-20T030000Z', '2026-11-21T030000Z'])
		expect(readdirSync(config.backupDir)).toEqual([])
		// An unreachable bucket fails before anything is dumped.
		const missing = configFromEnv({ DATA_DIR: dataDir, ...bucketEnv, BACKUP_S3_BUCKET: 'missing' })
		await expect(createBackup(missing, { log: quiet })).rejects.toThrow()
	})
})

describe('backups in BACKUP_DIR', () => {
	test(
		'BACKUP_KEEP deletes the oldest folders beyond it after a backup; restore takes the newest by default',
		{ timeout: 60_000 },
		async () => {
			const { dataDir } = source
			const backupDir = folder()
			for (const name of ['2026-11-20T030000Z', '2026-11-21T030000Z', '2026-11-22T030000Z']) oldBackup(backupDir, name)
			write(backupDir, 'kept-by-hand/notes.txt')
			const config = configFromEnv({ DATA_DIR: dataDir, BACKUP_DIR: backupDir, BACKUP_KEEP: '2' })
			const made = await createBackup(config, { log: quiet, now: new Date('2026-11-27T03:00:00Z') })
			expect(made.folder).toBe(join(backupDir, '2026-11-27T030000Z'))
			expect(readdirSync(backupDir).sort()).toEqual(['2026-11-22T030000Z', '2026-11-27T030000Z', 'kept-by-hand'])
			expect(await findBackup(config, undefined)).toMatchObject({ folder: made.folder, location: made.folder })
		},
	)

	test('BACKUP_KEEP is a positive whole number, or unset for all', () => {
		expect(keepSetting(undefined)).toBeUndefined()
		expect(keepSetting(' ')).toBeUndefined()
		expect(keepSetting('14')).toBe(14)
		for (const bad of ['0', '-1', '2.5', 'all', '1e3']) expect(() => keepSetting(bad), bad).toThrow(/BACKUP_KEEP must be/)
	})
})
