import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, describe, expect, test } from 'vitest'
import { createS3Storage, type S3Config } from '#app/adapters/storage.server.ts'
import {
	backupFiles,
	backupName,
	configFromEnv,
	createBackup,
	dataDirFiles,
	hashFile,
	isSafeRelativePath,
	libpqConnection,
	type Manifest,
	postgresTool,
	readManifest,
	replaceFolder,
	restoreBackup,
	restoreFiles,
	verifyBackup,
	type BackupConfig,
} from './backup-kit.ts'

const folders: string[] = []
afterAll(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))
function folder() {
	const path = mkdtempSync(join(tmpdir(), 'hmh-backup-kit-'))
	folders.push(path)
	return path
}
function write(root: string, path: string, content: string | Uint8Array = path) {
	mkdirSync(dirname(join(root, path)), { recursive: true })
	writeFileSync(join(root, path), content)
}
const quiet = () => {}

test('backups are named by their UTC time, in an order that sorts', () => {
	expect(backupName(new Date('2026-11-25T15:00:00.123Z'))).toBe('2026-11-25T150000Z')
	expect(backupName(new Date('2026-01-02T03:04:05Z')) < backupName(new Date('2026-01-02T03:04:06Z'))).toBe(true)
})

test('settings: the app’s own variables, the BACKUP_ ones beside them, and which secrets come from the environment', () => {
	expect(configFromEnv({})).toEqual({
		dataDir: '.data',
		pgliteDir: join('.data', 'db'),
		databaseUrl: undefined,
		backupDir: join('.data', 'backups'),
		place: { kind: 'local', dir: join('.data', 'backups') },
		keep: undefined,
		s3: undefined,
		secretsFromEnvironment: [],
	})
	const config = configFromEnv({
		DATA_DIR: '/srv/hmh',
		DATABASE_URL: ' postgres://db/hmh ',
		BACKUP_DIR: '/backups',
		S3_BUCKET: 'files',
		S3_FORCE_PATH_STYLE: 'true',
		DATA_ENCRYPTION_KEYS: 'a:b',
	})
	expect(config).toMatchObject({
		databaseUrl: 'postgres://db/hmh',
		backupDir: '/backups',
		secretsFromEnvironment: ['DATA_ENCRYPTION_KEYS'],
	})
	expect(config.s3).toEqual({ bucket: 'files', region: 'us-east-1', forcePathStyle: true })
	expect(config.place).toEqual({ kind: 'local', dir: '/backups' })
	// A bucket for the backups, reached with the same S3 settings as the uploads' bucket.
	expect(
		configFromEnv({ BACKUP_S3_BUCKET: 'offsite', BACKUP_S3_PREFIX: '/hmh/', S3_ENDPOINT: 'http://s3.local', BACKUP_KEEP: '7' }),
	).toMatchObject({
		place: { kind: 's3', prefix: 'hmh/', s3: { bucket: 'offsite', endpoint: 'http://s3.local', region: 'us-east-1' } },
		keep: 7,
		s3: undefined,
	})
})

test('paths taken from a manifest or a bucket stay inside the folder they are joined to', () => {
	for (const good of ['session-secret', 'users/u1/document/a.pdf', 'keys/.hidden']) expect(isSafeRelativePath(good)).toBe(true)
	for (const bad of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', './a', 'a\\b', 'c:/x', 'a/', 'nul\0'])
		expect(isSafeRelativePath(bad), bad).toBe(false)
})

test('pg_dump of the server’s major version, else the nearest newer one installed, else the one on PATH', () => {
	const root = folder()
	for (const version of ['13', '16', '17']) write(root, `${version}/bin/pg_dump`, '')
	write(root, '14/bin/pg_restore', '')
	expect(postgresTool('pg_dump', 13, root)).toBe(join(root, '13/bin/pg_dump'))
	expect(postgresTool('pg_dump', 15, root)).toBe(join(root, '16/bin/pg_dump'))
	expect(postgresTool('pg_dump', 18, root)).toBe('pg_dump')
	expect(postgresTool('pg_restore', 15, root)).toBe('pg_restore')
	expect(postgresTool('pg_dump', 15, join(root, 'missing'))).toBe('pg_dump')
})

test('the password goes to pg_dump in PGPASSWORD, never on its command line', () => {
	expect(libpqConnection('postgres://app:p%40ss@db.example:5432/hmh?sslmode=require')).toEqual({
		url: 'postgres://app@db.example:5432/hmh?sslmode=require',
		env: { PGPASSWORD: 'p@ss' },
	})
	expect(libpqConnection('postgres://postgres@127.0.0.1:5432/hmh')).toEqual({ url: 'postgres://postgres@127.0.0.1:5432/hmh', env: {} })
})

test('every regular file in DATA_DIR is taken, whatever its name, except backups, the database, uploads and the lock', async () => {
	const dataDir = folder()
	for (const path of [
		'session-secret',
		'data-encryption-key',
		'keys/2027.key',
		'backups/2026-11-25T150000Z/manifest.json',
		'snapshots/old/db.dump',
		'db/PG_VERSION',
		'uploads/users/u1/document/a.pdf',
		'server.pid',
		'session-secret.0123456789ab.tmp',
	])
		write(dataDir, path)
	const mounted = folder()
	write(mounted, 'secret.key')
	symlinkSync(join(mounted, 'secret.key'), join(dataDir, 'keys/mounted.key'))
	symlinkSync(mounted, join(dataDir, 'linked-folder'))
	const config = { dataDir, pgliteDir: join(dataDir, 'db'), backupDir: join(dataDir, 'snapshots') }
	expect(await dataDirFiles(config)).toEqual(['data-encryption-key', 'keys/2027.key', 'keys/mounted.key', 'session-secret'])
	expect(await dataDirFiles({ ...config, dataDir: join(dataDir, 'missing') })).toEqual([])
})

test('a restored embedded database takes the old one’s place only once it is complete', async () => {
	const root = folder()
	write(root, 'db/PG_VERSION', 'old')
	write(root, 'db.restoring-0a1b2c3d/PG_VERSION', 'new')
	await replaceFolder(join(root, 'db.restoring-0a1b2c3d'), join(root, 'db'))
	expect(readdirSync(root)).toEqual(['db'])
	expect(readFileSync(join(root, 'db/PG_VERSION'), 'utf8')).toBe('new')
	// A staging folder that cannot be moved in leaves the old database where it was.
	await expect(replaceFolder(join(root, 'missing'), join(root, 'db'))).rejects.toThrow()
	expect(readdirSync(root)).toEqual(['db'])
	expect(readFileSync(join(root, 'db/PG_VERSION'), 'utf8')).toBe('new')
	write(root, 'staged/PG_VERSION', 'first')
	await replaceFolder(join(root, 'staged'), join(root, 'fresh'))
	expect(readdirSync(root).sort()).toEqual(['db', 'fresh'])
})

describe('a backup is checked against its manifest before anything is restored', () => {
	async function syntheticBackup() {
		const root = folder()
		write(root, 'pglite.tar.gz', 'not really a tarball')
		write(root, 'files/users/u1/document/a.pdf', '%PDF-1.4')
		write(root, 'data-dir/session-secret', 'secret')
		const piece = async (path: string) => hashFile(join(root, path))
		const manifest: Manifest = {
			format: 1,
			createdAt: '2026-11-25T15:00:00.000Z',
			database: { kind: 'pglite', file: 'pglite.tar.gz', ...(await piece('pglite.tar.gz')), source: '/srv/db', pgliteVersion: '0.5.16' },
			storage: {
				kind: 'local',
				source: '/srv/uploads',
				count: 1,
				bytes: 8,
				objects: [{ key: 'users/u1/document/a.pdf', contentType: 'application/pdf', ...(await piece('files/users/u1/document/a.pdf')) }],
				skipped: [],
			},
			dataDir: { count: 1, bytes: 6, files: [{ path: 'session-secret', ...(await piece('data-dir/session-secret')) }] },
			secretsFromEnvironment: [],
		}
		write(root, 'manifest.json', JSON.stringify(manifest))
		return { root, manifest }
	}

	test('an intact backup passes', async () => {
		const { root } = await syntheticBackup()
		expect(await verifyBackup(root, await readManifest(root))).toBe(3)
	})

	test('a changed, shortened or missing piece is named, and the restore refused', async () => {
		const { root, manifest } = await syntheticBackup()
		write(root, 'files/users/u1/document/a.pdf', '%PDF-1.5')
		write(root, 'data-dir/session-secret', 'secre')
		rmSync(join(root, 'pglite.tar.gz'))
		const error = await verifyBackup(root, manifest).catch((e: Error) => e)
		expect(error).toBeInstanceOf(Error)
		expect((error as Error).message).toMatch(/nothing was restored/)
		expect((error as Error).message).toContain('files/users/u1/document/a.pdf: its sha256 differs')
		expect((error as Error).message).toContain('data-dir/session-secret: 5 bytes, the manifest says 6')
		expect((error as Error).message).toContain('pglite.tar.gz: missing')
		const config = configFromEnv({ DATA_DIR: folder() })
		await expect(restoreBackup(config, root, { log: quiet })).rejects.toThrow('does not match its manifest')
	})

	test('a manifest that points outside the backup is not read', async () => {
		const { root, manifest } = await syntheticBackup()
		manifest.dataDir.files[0]!.path = '../../.bashrc'
		write(root, 'manifest.json', JSON.stringify(manifest))
		await expect(readManifest(root)).rejects.toThrow('not a manifest this version can restore')
	})

	test('a folder without a manifest is no backup', async () => {
		await expect(restoreBackup(configFromEnv({ DATA_DIR: folder() }), folder(), { log: quiet })).rejects.toThrow(/is not a backup/)
	})

	test('an embedded backup is not restored over PostgreSQL, nor into a DATA_DIR a running server holds', async () => {
		const { root } = await syntheticBackup()
		const dataDir = folder()
		await expect(
			restoreBackup(configFromEnv({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/hmh' }), root, { log: quiet }),
		).rejects.toThrow(/embedded database \(PGlite\): unset DATABASE_URL/)
		// The process that started this test stands in for a server holding the directory.
		write(dataDir, 'server.pid', String(process.ppid))
		await expect(restoreBackup(configFromEnv({ DATA_DIR: dataDir }), join(root, 'manifest.json'), { log: quiet })).rejects.toThrow(
			/is using the embedded database[\s\S]*stop the server first/,
		)
	})

	test('a DATA_DIR file that differs from the backup’s is not overwritten without --clean', async () => {
		const { root } = await syntheticBackup()
		const dataDir = folder()
		write(dataDir, 'session-secret', 'another secret')
		await expect(restoreBackup(configFromEnv({ DATA_DIR: dataDir }), root, { log: quiet })).rejects.toThrow(
			/session-secret[\s\S]*Nothing was restored[\s\S]*--clean/,
		)
	})
})

test('the embedded database is not backed up while a server runs on DATA_DIR', async () => {
	const dataDir = folder()
	write(dataDir, 'db/PG_VERSION', '17')
	// The process that started this test stands in for the server holding the directory (db/embedded-lock.ts).
	write(dataDir, 'server.pid', String(process.ppid))
	await expect(createBackup(configFromEnv({ DATA_DIR: dataDir }), { log: quiet })).rejects.toThrow(
		/The server \(pid \d+\) is using the embedded database[\s\S]*stop the server first, back it up, then start it again/,
	)
	expect(readdirSync(dataDir).sort()).toEqual(['db', 'server.pid'])
})

describe('files in a bucket', () => {
	let server: S3rver | undefined
	afterAll(() => server?.close())

	async function buckets(...names: string[]) {
		server = new S3rver({
			port: 0,
			address: '127.0.0.1',
			silent: true,
			directory: folder(),
			configureBuckets: names.map((name) => ({ name, configs: [] })),
		})
		const { port } = await server.run()
		return (bucket: string): S3Config => ({
			bucket,
			region: 'us-east-1',
			endpoint: `http://127.0.0.1:${port}`,
			accessKeyId: 'S3RVER',
			secretAccessKey: 'S3RVER',
			forcePathStyle: true,
		})
	}
	const configWith = (s3: S3Config | undefined, dataDir = folder()): BackupConfig => ({
		...configFromEnv({ DATA_DIR: dataDir }),
		s3,
	})

	test('every object is copied with its content type, and put back into another bucket or a folder', async () => {
		const s3 = await buckets('source', 'target')
		const source = createS3Storage(s3('source'))
		const objects = [
			{ key: 'users/u1/picture/a.webp', body: new Uint8Array([1, 2, 3]), contentType: 'image/webp' },
			{ key: 'users/u1/document/b.pdf', body: new Uint8Array(2048).fill(7), contentType: 'application/pdf' },
			{ key: 'users/u2/insurance-card/c.png', body: new Uint8Array([0]), contentType: 'image/png' },
		]
		for (const o of objects) await source.put(o.key, o.body, o.contentType)

		const work = folder()
		const files = await backupFiles(configWith(s3('source')), work, quiet)
		expect(files).toMatchObject({ kind: 's3', source: 's3://source', count: 3, bytes: 2052, skipped: [] })
		expect(files.objects.map((o) => [o.key, o.contentType, o.size])).toEqual([
			['users/u1/document/b.pdf', 'application/pdf', 2048],
			['users/u1/picture/a.webp', 'image/webp', 3],
			['users/u2/insurance-card/c.png', 'image/png', 1],
		])

		await restoreFiles(configWith(s3('target')), work, files, quiet)
		const target = createS3Storage(s3('target'))
		for (const o of objects) expect(await target.get(o.key)).toEqual({ body: o.body, contentType: o.contentType, size: o.body.byteLength })

		// A bucket's backup restores into the local folder too (moving off S3), with the content types kept.
		const dataDir = folder()
		await restoreFiles(configWith(undefined, dataDir), work, files, quiet)
		const local = await backupFiles(configWith(undefined, dataDir), folder(), quiet)
		expect(local.objects.map(({ key, contentType, sha256 }) => ({ key, contentType, sha256 }))).toEqual(
			files.objects.map(({ key, contentType, sha256 }) => ({ key, contentType, sha256 })),
		)
	})
})

test('backup files are readable by their owner only', async () => {
	const dataDir = folder()
	write(dataDir, 'uploads/users/u1/document/a.pdf', '%PDF')
	chmodSync(join(dataDir, 'uploads/users/u1/document/a.pdf'), 0o644)
	const work = folder()
	await backupFiles(configFromEnv({ DATA_DIR: dataDir }), work, quiet)
	expect(statSync(join(work, 'files/users/u1/document/a.pdf')).mode & 0o777).toBe(0o600)
})
