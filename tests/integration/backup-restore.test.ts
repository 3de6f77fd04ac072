import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { afterAll, describe, expect, test } from 'vitest'
import { createLocalStorage } from '#app/adapters/storage.server.ts'
import { configFromEnv, createBackup, readManifest, restoreBackup } from '../../scripts/backup-kit.ts'
import { currentRunName, databaseUrl, templateDatabase, workerDatabase } from '../setup/databases.ts'

const execute = promisify(execFile)
const folders: string[] = []
afterAll(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))
function folder(name: string) {
	const path = mkdtempSync(join(tmpdir(), `hmh-${name}-`))
	folders.push(path)
	return path
}

/** The environment of a process of the app's (or of `npm run backup`) on this DATA_DIR and database: secrets made there. */
function appEnv(dataDir: string, database?: string, extra: Record<string, string> = {}) {
	const {
		DATABASE_URL: _url,
		PGLITE_DIR: _dir,
		SESSION_SECRET: _secret,
		DATA_ENCRYPTION_KEYS: _keys,
		BACKUP_DIR: _backups,
		S3_BUCKET: _bucket,
		...rest
	} = process.env
	return { ...rest, NODE_ENV: 'test', DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database } : {}), ...extra }
}

const tsx = (script: string, args: string[], env: NodeJS.ProcessEnv) =>
	execute(process.execPath, ['--import', 'tsx', script, ...args], { env, maxBuffer: 16 * 1024 * 1024 })
/** What the app reads of the profile (backup-restore-app.ts), in a process bound to that DATA_DIR and database. */
const theApp = async (args: string[], env: NodeJS.ProcessEnv) =>
	JSON.parse((await tsx('tests/integration/backup-restore-app.ts', args, env)).stdout)

describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL', () => {
	const run = process.env.DATABASE_URL ? currentRunName() : ''
	// Named like the run's worker databases, so a run that dies before it drops them has them dropped by a later one.
	const source = workerDatabase(run, 901)
	const target = workerDatabase(run, 902)
	const admin = process.env.DATABASE_URL ? postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} }) : null
	afterAll(async () => {
		for (const name of [source, target]) await admin?.unsafe(`drop database if exists ${name} with (force)`)
		await admin?.end()
	})

	test(
		'npm run backup, then npm run restore into an empty database: the app reads the same profile and files',
		{ timeout: 180_000 },
		async () => {
			await admin!.unsafe(`create database ${source} template ${templateDatabase(run)}`)
			await admin!.unsafe(`create database ${target} template template0`)
			const sourceUrl = databaseUrl(process.env.DATABASE_URL!, source)
			const targetUrl = databaseUrl(process.env.DATABASE_URL!, target)
			const [sourceDir, targetDir, backupDir] = [folder('backup-source'), folder('restore-target'), folder('backups')]

			const seeded = await theApp(['seed'], appEnv(sourceDir, sourceUrl))
			expect(seeded.detail.allergies.map((a: { allergen: string }) => a.allergen)).toEqual(['Penicillin', 'Latex'])
			expect(seeded.detail.medications[0].name).toBe('Warfarin')
			expect(Object.keys(seeded.files)).toHaveLength(2)

			const backup = await tsx('scripts/backup.ts', [], appEnv(sourceDir, sourceUrl, { BACKUP_DIR: backupDir }))
			const made = backup.stdout.trim()
			expect(made).toMatch(/\/\d{4}-\d\d-\d\dT\d{6}Z$/)
			expect(backup.stderr).toContain('keep it as safe as the data itself')
			const manifest = await readManifest(made)
			expect(manifest.database).toMatchObject({ kind: 'postgresql', file: 'db.dump' })
			// The document, and the picture with its two small copies.
			expect(manifest.storage).toMatchObject({ kind: 'local', count: 4 })
			expect(manifest.storage.objects.map((o) => o.contentType).sort()).toEqual([
				'application/pdf',
				'image/jpeg',
				'image/png',
				'image/webp',
			])
			// The app made its session secret and data key in the source DATA_DIR: without the key the copy could not be read.
			expect(manifest.dataDir.files.map((f) => f.path)).toEqual(expect.arrayContaining(['data-encryption-key', 'session-secret']))

			const restore = await tsx('scripts/restore.ts', [made], appEnv(targetDir, targetUrl))
			expect(restore.stderr).toContain('pieces match the manifest')
			expect(await theApp(['read', seeded.userId, String(seeded.profileId)], appEnv(targetDir, targetUrl))).toEqual(seeded)

			// The database now holds the backup: a second restore is refused, and says how to go on; --clean replaces it.
			const again = configFromEnv(appEnv(targetDir, targetUrl))
			await expect(restoreBackup(again, made, { log: () => {} })).rejects.toThrow(/is not empty[\s\S]*Nothing was restored[\s\S]*--clean/)
			await expect(restoreBackup(again, made, { log: () => {}, clean: true })).resolves.toMatchObject({
				database: { kind: 'postgresql' },
			})
		},
	)
})

describe('on the embedded database (PGlite)', () => {
	test('DATA_DIR, with its database, uploads and key files, is restored into a new DATA_DIR', { timeout: 180_000 }, async () => {
		const [sourceDir, targetDir] = [folder('backup-embedded'), folder('restore-embedded')]
		const source = new PGlite(join(sourceDir, 'db'))
		await source.exec(`create table probe (id int primary key, note text); insert into probe values (1, 'kept')`)
		await source.close()
		const secrets = { 'session-secret': randomBytes(32), 'data-encryption-key': randomBytes(32), 'keys/extra.key': randomBytes(16) }
		mkdirSync(join(sourceDir, 'keys'))
		for (const [path, bytes] of Object.entries(secrets)) writeFileSync(join(sourceDir, path), bytes)
		const document = { key: 'users/u1/document/a.pdf', body: new Uint8Array(randomBytes(300)), contentType: 'application/pdf' }
		await createLocalStorage(join(sourceDir, 'uploads')).put(document.key, document.body, document.contentType)

		const config = (dataDir: string) => configFromEnv(appEnv(dataDir))
		const log = () => {}
		const { folder: made, manifest } = await createBackup(config(sourceDir), { log })
		expect(made.startsWith(join(sourceDir, 'backups'))).toBe(true)
		expect(manifest.database).toMatchObject({ kind: 'pglite', file: 'pglite.tar.gz' })
		expect(manifest.dataDir.files.map((f) => f.path)).toEqual(['data-encryption-key', 'keys/extra.key', 'session-secret'])
		expect(manifest.storage.objects).toEqual([expect.objectContaining({ key: document.key, contentType: 'application/pdf', size: 300 })])

		await restoreBackup(config(targetDir), made, { log })
		const restored = new PGlite(join(targetDir, 'db'))
		try {
			expect((await restored.query('select id, note from probe')).rows).toEqual([{ id: 1, note: 'kept' }])
		} finally {
			await restored.close()
		}
		for (const [path, bytes] of Object.entries(secrets)) expect(readFileSync(join(targetDir, path))).toEqual(bytes)
		expect(await createLocalStorage(join(targetDir, 'uploads')).get(document.key)).toEqual({
			body: document.body,
			contentType: document.contentType,
			size: 300,
		})

		// Only the database, its files and keys are there: no lock left behind, no folder the restore worked in.
		expect(readdirSync(targetDir).sort()).toEqual(['data-encryption-key', 'db', 'keys', 'session-secret', 'uploads'])
		await expect(restoreBackup(config(targetDir), made, { log })).rejects.toThrow(/already an embedded database[\s\S]*--clean/)
	})
})
