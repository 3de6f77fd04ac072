import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import postgres from 'postgres'
import { z } from 'zod'
import {
	type BackupPlace,
	backupLocation,
	downloadBackup,
	listBackups,
	MANIFEST,
	normalPrefix,
	placeLocation,
	pruneBackups,
	uploadBackup,
} from '../app/adapters/backup-place.server.ts'
import type { S3Config } from '../app/adapters/s3-client.server.ts'
import type { FileStorage } from '../app/adapters/storage.server.ts'
import { embeddedDatabaseHolder, holdEmbeddedDatabase } from '../db/embedded-lock.ts'
import { JOB_SCHEMA } from '../db/job-queues.ts'

/*
 * Backup and restore (README, "Backups and restore"). One folder per backup, in BACKUP_DIR or in a bucket
 * (BACKUP_S3_BUCKET: written locally first, then streamed there file by file and removed here; see
 * app/adapters/backup-place.server.ts):
 *   manifest.json   what is in it, with the size and sha256 of every piece
 *   db.dump         PostgreSQL (pg_dump --format=custom), or pglite.tar.gz: the embedded database (PGlite's dumpDataDir)
 *   files/<key>     every stored upload (S3 objects or DATA_DIR/uploads), content types in the manifest
 *   data-dir/<path> DATA_DIR's own files: the session secret and any key files, whatever their names
 * Restore checks every checksum before it writes anything, and refuses to write over a database unless told to.
 * PGlite and the S3 client are loaded where they are used: each takes a while to load, and most runs need neither.
 */

export { MANIFEST }
export const PG_DUMP_FILE = 'db.dump'
export const PGLITE_FILE = 'pglite.tar.gz'
export const FILES_DIR = 'files'
export const DATA_DIR_COPY = 'data-dir'
/** The lock file the server holds in DATA_DIR (db/embedded-lock.ts): it belongs to a process, never to a backup. */
const LOCK_FILE = 'server.pid'
const POSTGRES_BIN_ROOT = '/usr/lib/postgresql'
const PARALLEL_TRANSFERS = 8
/** A file the app is writing aside before renaming it into place (storage puts, generated secrets). */
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/
/** The folders an embedded restore works in beside PGLITE_DIR; one is left only if the restore was killed. */
const LEFTOVER = /\.(restoring|replaced)-[0-9a-f]{8}$/

/** A refusal or failure whose message says it all: the command prints it without a stack trace. */
export class BackupError extends Error {}

export type BackupConfig = {
	dataDir: string
	pgliteDir: string
	databaseUrl: string | undefined
	backupDir: string
	/** Where backups are kept: BACKUP_DIR, or the bucket BACKUP_S3_BUCKET (under BACKUP_S3_PREFIX). */
	place: BackupPlace
	/** BACKUP_KEEP: after a backup, only this many (the newest) stay; undefined keeps all. */
	keep: number | undefined
	s3: S3Config | undefined
	/** Secrets the app takes from the environment when set (then no file in DATA_DIR holds them): never in a backup. */
	secretsFromEnvironment: string[]
}

const setting = (value: string | undefined) => value?.trim() || undefined

/** The S3 connection settings the app reads (S3_REGION, S3_ENDPOINT, …) for `bucket`. */
function s3Settings(env: NodeJS.ProcessEnv, bucket: string): S3Config {
	return {
		bucket,
		region: setting(env.S3_REGION) ?? 'us-east-1',
		endpoint: setting(env.S3_ENDPOINT),
		accessKeyId: setting(env.S3_ACCESS_KEY_ID),
		secretAccessKey: setting(env.S3_SECRET_ACCESS_KEY),
		forcePathStyle: ['true', '1'].includes(setting(env.S3_FORCE_PATH_STYLE) ?? ''),
	}
}

/** BACKUP_KEEP: a positive whole number, or unset (keep every backup). */
export function keepSetting(value: string | undefined) {
	const text = setting(value)
	if (text === undefined) return undefined
	if (!/^\d+$/.test(text) || Number(text) < 1)
		throw new BackupError(
			`BACKUP_KEEP must be a whole number of backups to keep, at least 1 (or unset to keep all), not ${JSON.stringify(text)}.`,
		)
	return Number(text)
}

/**
 * The same settings the app reads (app/utils/env.server.ts, db/client.ts), plus BACKUP_DIR, BACKUP_S3_BUCKET,
 * BACKUP_S3_PREFIX and BACKUP_KEEP.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): BackupConfig {
	const dataDir = env.DATA_DIR ?? '.data'
	const bucket = setting(env.S3_BUCKET)
	const backupBucket = setting(env.BACKUP_S3_BUCKET)
	const backupDir = setting(env.BACKUP_DIR) ?? join(dataDir, 'backups')
	return {
		dataDir,
		pgliteDir: env.PGLITE_DIR ?? join(dataDir, 'db'),
		databaseUrl: setting(env.DATABASE_URL),
		backupDir,
		place: backupBucket
			? { kind: 's3', s3: s3Settings(env, backupBucket), prefix: normalPrefix(env.BACKUP_S3_PREFIX) }
			: { kind: 'local', dir: backupDir },
		keep: keepSetting(env.BACKUP_KEEP),
		s3: bucket ? s3Settings(env, bucket) : undefined,
		secretsFromEnvironment: ['SESSION_SECRET', 'DATA_ENCRYPTION_KEYS'].filter((name) => setting(env[name])),
	}
}

// ---------------------------------------------------------------- manifest

/** A relative path that stays inside the folder it is joined to. */
export function isSafeRelativePath(path: string) {
	if (!path || path.startsWith('/') || path.includes('\\') || path.includes('\0') || /^[a-z]:/i.test(path)) return false
	return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
}

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/)
const RelativePath = z.string().refine(isSafeRelativePath, 'not a relative path inside the backup')
const Checked = { size: z.number().int().nonnegative(), sha256: Sha256 }

const ManifestSchema = z.object({
	format: z.literal(1),
	createdAt: z.string(),
	database: z.discriminatedUnion('kind', [
		z.object({
			kind: z.literal('postgresql'),
			file: z.literal(PG_DUMP_FILE),
			...Checked,
			source: z.string(),
			serverVersion: z.string(),
			dumpedWith: z.string(),
		}),
		z.object({ kind: z.literal('pglite'), file: z.literal(PGLITE_FILE), ...Checked, source: z.string(), pgliteVersion: z.string() }),
	]),
	storage: z.object({
		kind: z.enum(['s3', 'local']),
		source: z.string(),
		count: z.number().int().nonnegative(),
		bytes: z.number().int().nonnegative(),
		objects: z.array(z.object({ key: RelativePath, contentType: z.string(), ...Checked })),
		skipped: z.array(z.object({ key: z.string(), reason: z.string() })),
	}),
	dataDir: z.object({
		count: z.number().int().nonnegative(),
		bytes: z.number().int().nonnegative(),
		files: z.array(z.object({ path: RelativePath, ...Checked })),
	}),
	secretsFromEnvironment: z.array(z.string()),
})
export type Manifest = z.infer<typeof ManifestSchema>
type Piece = { path: string; size: number; sha256: string }

/** Every file the manifest vouches for, as a path inside the backup folder. */
export function piecesOf(manifest: Manifest): Piece[] {
	return [
		{ path: manifest.database.file, size: manifest.database.size, sha256: manifest.database.sha256 },
		...manifest.storage.objects.map((o) => ({ path: `${FILES_DIR}/${o.key}`, size: o.size, sha256: o.sha256 })),
		...manifest.dataDir.files.map((f) => ({ path: `${DATA_DIR_COPY}/${f.path}`, size: f.size, sha256: f.sha256 })),
	]
}

export async function hashFile(path: string) {
	const hash = createHash('sha256')
	let size = 0
	for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
		hash.update(chunk)
		size += chunk.byteLength
	}
	return { size, sha256: hash.digest('hex') }
}

/** The backup folder named by `path`: the folder itself, or any file in it (its manifest, its db.dump). */
export function backupFolderOf(path: string) {
	const folder = statSync(path, { throwIfNoEntry: false })?.isFile() ? dirname(path) : path
	if (!existsSync(join(folder, MANIFEST))) throw new BackupError(`${path} is not a backup: there is no ${MANIFEST} in ${folder}.`)
	return resolve(folder)
}

export async function readManifest(folder: string): Promise<Manifest> {
	let raw: unknown
	try {
		raw = JSON.parse(await readFile(join(folder, MANIFEST), 'utf8'))
	} catch (error) {
		throw new BackupError(`Cannot read ${join(folder, MANIFEST)}: ${(error as Error).message}`)
	}
	const parsed = ManifestSchema.safeParse(raw)
	if (!parsed.success) {
		const problems = parsed.error.issues.slice(0, 5).map((i) => `  ${i.path.join('.')}: ${i.message}`)
		throw new BackupError(`${join(folder, MANIFEST)} is not a manifest this version can restore:\n${problems.join('\n')}`)
	}
	return parsed.data
}

/** Checks every piece's size and sha256 against the manifest; throws naming each one that differs or is missing. */
export async function verifyBackup(folder: string, manifest: Manifest) {
	const problems: string[] = []
	await eachLimit(piecesOf(manifest), PARALLEL_TRANSFERS, async (piece) => {
		const file = join(folder, piece.path)
		if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return void problems.push(`${piece.path}: missing`)
		const found = await hashFile(file)
		if (found.size !== piece.size) problems.push(`${piece.path}: ${found.size} bytes, the manifest says ${piece.size}`)
		else if (found.sha256 !== piece.sha256) problems.push(`${piece.path}: its sha256 differs from the manifest's`)
	})
	if (problems.length === 0) return piecesOf(manifest).length
	const shown = problems.sort().slice(0, 10)
	const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : ''
	throw new BackupError(
		`The backup in ${folder} does not match its manifest, so nothing was restored:\n  ${shown.join('\n  ')}${more}\n` +
			'Restore another backup; this one was changed or damaged after it was made.',
	)
}

// ---------------------------------------------------------------- backup

type Log = (line: string) => void
export type BackupOptions = { log?: Log; now?: Date }

/** `2026-11-25T150000Z`: sorts by time and is a valid file name everywhere. */
export function backupName(now: Date) {
	return now
		.toISOString()
		.replace(/\.\d{3}Z$/, 'Z')
		.replaceAll(':', '')
}

/**
 * Makes one backup in config.place (a folder in BACKUP_DIR, or the bucket) and answers where it is (`folder`: its path,
 * or its s3:// address) with its manifest. A failed run leaves nothing behind and deletes nothing; a successful one then
 * deletes the oldest backups beyond BACKUP_KEEP.
 */
export async function createBackup(config: BackupConfig, { log = console.error, now = new Date() }: BackupOptions = {}) {
	const { place } = config
	// Listed first: a bucket that cannot be reached fails the run before anything is dumped.
	const taken = place.kind === 's3' ? new Set((await listBackups(place)).map((b) => b.name)) : new Set<string>()
	const release = config.databaseUrl ? () => {} : claimEmbedded(config, 'back it up')
	let written: Awaited<ReturnType<typeof writeBackup>>
	try {
		written = await writeBackup(config, log, now, taken)
	} finally {
		release()
	}
	const { folder: local, manifest } = written
	const name = basename(local)
	if (place.kind === 's3') {
		try {
			log(`Uploading to ${backupLocation(place, name)} …`)
			await uploadBackup(place, name, local)
		} finally {
			await rm(local, { recursive: true, force: true })
		}
	}
	const folder = place.kind === 's3' ? backupLocation(place, name) : local
	if (config.keep !== undefined) {
		try {
			const deleted = await pruneBackups(place, config.keep, name)
			if (deleted.length > 0) log(`BACKUP_KEEP=${config.keep}: deleted the older ${deleted.join(', ')} from ${placeLocation(place)}.`)
		} catch (error) {
			log(
				`Warning: the backup was made, but the older ones beyond BACKUP_KEEP=${config.keep} could not be deleted: ${(error as Error).message}`,
			)
		}
	}
	return { folder, name, manifest }
}

async function writeBackup(config: BackupConfig, log: Log, now: Date, taken: Set<string>) {
	await mkdir(config.backupDir, { recursive: true, mode: 0o700 })
	const name = finalName(config.backupDir, backupName(now), taken)
	// Written under another name and renamed when complete: a folder with the final name is always a whole backup.
	const work = join(config.backupDir, `.${name}.${randomBytes(4).toString('hex')}.partial`)
	await mkdir(work, { mode: 0o700 })
	try {
		// The database first, then the files: the app stores a file before a row points at it, so every file the dump
		// points at is copied, unless it was deleted while the backup ran.
		const database = config.databaseUrl ? await dumpPostgres(config.databaseUrl, work, log) : await dumpPglite(config.pgliteDir, work, log)
		const dataDir = await copyDataDir(config, work)
		const storage = await backupFiles(config, work, log)
		const { secretsFromEnvironment } = config
		const manifest: Manifest = { format: 1, createdAt: now.toISOString(), database, storage, dataDir, secretsFromEnvironment }
		await writeFile(join(work, MANIFEST), `${JSON.stringify(manifest, null, '\t')}\n`, { mode: 0o600 })
		const folder = join(config.backupDir, name)
		await rename(work, folder)
		log(`Database: ${database.kind} (${database.file}, ${formatBytes(database.size)}).`)
		log(`Files: ${storage.count} (${formatBytes(storage.bytes)}) from ${storage.source}.`)
		for (const skipped of storage.skipped) log(`  Not copied: ${skipped.key} (${skipped.reason}).`)
		if (dataDir.count > 0) {
			log(`DATA_DIR files: ${dataDir.files.map((f) => f.path).join(', ')}.`)
			log(
				'Warning: this backup holds the secret files kept in DATA_DIR (the session secret and any encryption keys). ' +
					'Anyone who has it can read the data it protects: keep it as safe as the data itself.',
			)
		}
		if (secretsFromEnvironment.length > 0) log(secretsNote(secretsFromEnvironment))
		const unkept = SECRETS.filter((s) => !secretsFromEnvironment.includes(s.setting) && !dataDir.files.some((f) => f.path === s.file))
		for (const secret of unkept)
			log(
				`Warning: neither ${secret.setting} is set nor is there a ${join(config.dataDir, secret.file)}, so this backup holds no ` +
					`${secret.what}. If the server runs with another DATA_DIR, run the backup with that one.`,
			)
		return { folder, manifest }
	} catch (error) {
		await rm(work, { recursive: true, force: true })
		throw error
	}
}

/** The secrets the app keeps in DATA_DIR unless the environment sets them (app/utils/env.server.ts). */
const SECRETS = [
	{ setting: 'SESSION_SECRET', file: 'session-secret', what: 'session secret (sessions end at restore)' },
	{ setting: 'DATA_ENCRYPTION_KEYS', file: 'data-encryption-key', what: 'data encryption key (without it no sealed data can be read)' },
]

const secretsNote = (names: string[]) =>
	`Not in the backup: ${names.join(' and ')}, set in the environment. Keep them apart from it (a secret store): ` +
	'the app restored from it can read its data and sessions only with the same values.'

function finalName(backupDir: string, name: string, taken: Set<string>) {
	for (let n = 1; ; n++) {
		const candidate = n === 1 ? name : `${name}-${n}`
		if (!taken.has(candidate) && !existsSync(join(backupDir, candidate))) return candidate
	}
}

/** PGlite allows one process per data directory: refuse while the server runs, and keep it from starting meanwhile. */
function claimEmbedded(config: BackupConfig, action: string) {
	if (config.pgliteDir === 'memory://') throw new BackupError('PGLITE_DIR is memory://: that database lives in memory only.')
	const holder = embeddedDatabaseHolder(config.dataDir)
	if (holder)
		throw new BackupError(
			`The server (pid ${holder}) is using the embedded database in ${config.dataDir}. Its files change while it runs, ` +
				`so stop the server first, ${action}, then start it again (or use PostgreSQL: DATABASE_URL).`,
		)
	return holdEmbeddedDatabase(config.dataDir)
}

async function dumpPostgres(databaseUrl: string, work: string, log: Log): Promise<Manifest['database']> {
	const server = await describeServer(databaseUrl)
	const pgDump = postgresTool('pg_dump', server.major)
	const dumpedWith = (await run(pgDump, ['--version'])).stdout.trim()
	log(`Dumping ${server.name} (PostgreSQL ${server.version}) with ${pgDump} …`)
	const connection = libpqConnection(databaseUrl)
	const file = join(work, PG_DUMP_FILE)
	// The job queues are left out: they hold wake-ups and clock ticks, not records (what a job acts on is in the app's
	// tables, and the app recreates the queues at start). Their partitioned tables are also what pg_restore --clean
	// cannot drop.
	const args = ['--format=custom', '--no-password', `--exclude-schema=${JOB_SCHEMA}`, `--file=${file}`, `--dbname=${connection.url}`]
	await run(pgDump, args, connection.env)
	await chmod(file, 0o600)
	return {
		kind: 'postgresql',
		file: PG_DUMP_FILE,
		...(await hashFile(file)),
		source: server.name,
		serverVersion: server.version,
		dumpedWith,
	}
}

async function dumpPglite(pgliteDir: string, work: string, log: Log): Promise<Manifest['database']> {
	if (!existsSync(join(pgliteDir, 'PG_VERSION')))
		throw new BackupError(`There is no embedded database in ${pgliteDir} to back up (has the app been started with this DATA_DIR?).`)
	log(`Dumping the embedded database in ${pgliteDir} …`)
	const { PGlite } = await import('@electric-sql/pglite')
	const pg = new PGlite(pgliteDir)
	let tarball: Blob
	try {
		// Written out first, so the tarball holds the tables themselves rather than a log to replay.
		await pg.exec('checkpoint')
		tarball = await pg.dumpDataDir('gzip')
	} finally {
		await pg.close()
	}
	const bytes = new Uint8Array(await tarball.arrayBuffer())
	await writeFile(join(work, PGLITE_FILE), bytes, { mode: 0o600 })
	return { kind: 'pglite', file: PGLITE_FILE, ...hashBytes(bytes), source: resolve(pgliteDir), pgliteVersion: pgliteVersion() }
}

/**
 * Every regular file in DATA_DIR except what is saved another way (the embedded database, uploads) or is no data
 * (backups, the server's lock file): the session secret and key files are taken whatever they are called.
 */
export async function dataDirFiles(config: Pick<BackupConfig, 'dataDir' | 'pgliteDir' | 'backupDir'>) {
	const root = resolve(config.dataDir)
	const skip = new Set(
		[config.backupDir, join(root, 'backups'), config.pgliteDir, join(root, 'uploads'), join(root, LOCK_FILE)].map((p) => resolve(p)),
	)
	const found: string[] = []
	const walk = async (dir: string) => {
		const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT') return []
			throw error
		})
		for (const entry of entries) {
			const path = join(dir, entry.name)
			if (skip.has(path) || (entry.isDirectory() && LEFTOVER.test(entry.name))) continue
			if (entry.isDirectory()) await walk(path)
			// A link to a file counts (secrets are often mounted that way); links to folders are not followed.
			else if (
				(entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile())) &&
				!TEMPORARY.test(entry.name)
			)
				found.push(relative(root, path).split(sep).join('/'))
		}
	}
	await walk(root)
	return found.sort()
}

async function copyDataDir(config: BackupConfig, work: string): Promise<Manifest['dataDir']> {
	const files: Manifest['dataDir']['files'] = []
	for (const path of await dataDirFiles(config)) {
		const target = join(work, DATA_DIR_COPY, path)
		await mkdir(dirname(target), { recursive: true, mode: 0o700 })
		await copyFile(join(config.dataDir, path), target)
		await chmod(target, 0o600)
		files.push({ path, ...(await hashFile(target)) })
	}
	return { count: files.length, bytes: sum(files.map((f) => f.size)), files }
}

// ---------------------------------------------------------------- storage (S3 or DATA_DIR/uploads)

type StoredObject = { body: Uint8Array; contentType: string }
type ObjectStore = {
	kind: 's3' | 'local'
	source: string
	list(): Promise<string[]>
	get(key: string): Promise<StoredObject | null>
	put(key: string, object: StoredObject): Promise<void>
	close(): void
}

/** The bucket through the S3 API, with the app's own client (app/adapters/s3-client.server.ts); listing is the backup's own need. */
async function s3Store(config: S3Config): Promise<ObjectStore> {
	const { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } = await import('@aws-sdk/client-s3')
	const { createS3Client } = await import('../app/adapters/s3-client.server.ts')
	const Bucket = config.bucket
	const client = createS3Client(config)
	return {
		kind: 's3',
		source: `s3://${Bucket}`,
		async list() {
			const keys: string[] = []
			let ContinuationToken: string | undefined
			do {
				const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }))
				for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key)
				ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
			} while (ContinuationToken)
			return keys
		},
		async get(Key) {
			try {
				const object = await client.send(new GetObjectCommand({ Bucket, Key }))
				const body = object.Body ? await object.Body.transformToByteArray() : new Uint8Array()
				return { body, contentType: object.ContentType ?? 'application/octet-stream' }
			} catch (error) {
				if ((error as { name?: string }).name === 'NoSuchKey') return null
				throw error
			}
		},
		async put(Key, { body, contentType }) {
			await client.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentType: contentType }))
		},
		close: () => client.destroy(),
	}
}

/** DATA_DIR/uploads through the app's own local storage, so its content-type records are read and written its way. */
async function localStore(root: string): Promise<ObjectStore> {
	// Loaded here, not at the top: the module reads the app's settings, which make the session secret and data key in
	// DATA_DIR when they are missing, and a restore must put the backed-up ones there first.
	const { createLocalStorage } = await import('../app/adapters/storage.server.ts')
	const storage: FileStorage = createLocalStorage(root)
	return {
		kind: 'local',
		source: resolve(root),
		async list() {
			const keys: string[] = []
			const walk = async (dir: string, prefix: string) => {
				const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
					if (error.code === 'ENOENT') return []
					throw error
				})
				for (const entry of entries) {
					if (entry.isDirectory()) await walk(join(dir, entry.name), `${prefix}${entry.name}/`)
					// Content-type records and the half-written temporaries of a put in progress are no files of their own.
					else if (entry.isFile() && !entry.name.endsWith('.meta.json') && !TEMPORARY.test(entry.name)) keys.push(prefix + entry.name)
				}
			}
			await walk(root, '')
			return keys
		},
		get: (key) => storage.get(key),
		put: (key, { body, contentType }) => storage.put(key, body, contentType),
		close: () => {},
	}
}

const openStore = (config: BackupConfig) => (config.s3 ? s3Store(config.s3) : localStore(join(config.dataDir, 'uploads')))

/** Copies every stored file into `work`/files; answers the manifest's record of them. */
export async function backupFiles(config: BackupConfig, work: string, log: Log): Promise<Manifest['storage']> {
	const store = await openStore(config)
	try {
		log(`Copying the files in ${store.source} …`)
		const objects: Manifest['storage']['objects'] = []
		const skipped: Manifest['storage']['skipped'] = []
		await eachLimit((await store.list()).sort(), PARALLEL_TRANSFERS, async (key) => {
			if (!isSafeRelativePath(key)) return void skipped.push({ key, reason: 'its key is not a usable file path' })
			const object = await store.get(key)
			// Deleted since it was listed: the database no longer points at it.
			if (!object) return
			const target = join(work, FILES_DIR, key)
			await mkdir(dirname(target), { recursive: true, mode: 0o700 })
			await writeFile(target, object.body, { mode: 0o600 })
			objects.push({ key, contentType: object.contentType, ...hashBytes(object.body) })
		})
		objects.sort((a, b) => (a.key < b.key ? -1 : 1))
		return { kind: store.kind, source: store.source, count: objects.length, bytes: sum(objects.map((o) => o.size)), objects, skipped }
	} finally {
		store.close()
	}
}

// ---------------------------------------------------------------- restore

export type RestoreOptions = { clean?: boolean; log?: Log; /** How the command was given the backup, for its hints. */ shownAs?: string }

export type FoundBackup = { folder: string; location: string; at: Date | null; done: () => Promise<void> }

/**
 * The backup to restore: `which` is a backup folder (or a file in it), or the name of a backup in config.place (or its
 * full s3:// address); none means the newest there. One in a bucket is downloaded beside BACKUP_DIR first (streamed to
 * disk); `done` removes that copy.
 */
export async function findBackup(config: BackupConfig, which: string | undefined): Promise<FoundBackup> {
	const nothing = async () => {}
	if (which !== undefined && statSync(which, { throwIfNoEntry: false })) {
		const folder = backupFolderOf(which)
		return { folder, location: folder, at: null, done: nothing }
	}
	const { place } = config
	const where = placeLocation(place)
	const backups = await listBackups(place)
	const wanted = which?.replace(/\/+$/, '')
	const found = wanted === undefined ? backups.at(-1) : backups.find((b) => b.name === wanted || b.location === wanted)
	if (!found) {
		const latest = backups.slice(-3).map((b) => `  ${b.name}`)
		const listed = latest.length > 0 ? `\nThe latest there:\n${latest.join('\n')}` : ''
		throw new BackupError(
			wanted === undefined ? `There is no backup in ${where}.` : `There is no backup ${wanted} (nor in ${where}).${listed}`,
		)
	}
	if (place.kind === 'local') return { folder: join(place.dir, found.name), location: found.location, at: found.at, done: nothing }
	await mkdir(config.backupDir, { recursive: true, mode: 0o700 })
	const folder = join(config.backupDir, `.${found.name}.${randomBytes(4).toString('hex')}.download`)
	const done = () => rm(folder, { recursive: true, force: true })
	try {
		if (!(await downloadBackup(place, found.name, folder))) throw new BackupError(`${found.location} was deleted while it was being read.`)
	} catch (error) {
		await done()
		throw error
	}
	return { folder, location: found.location, at: found.at, done }
}

/**
 * Restores the backup in `path` into the configured database, storage and DATA_DIR. Nothing is written until every
 * checksum matches and every target has been checked: a database already there is replaced only with `clean`.
 */
export async function restoreBackup(
	config: BackupConfig,
	path: string,
	{ clean = false, log = console.error, shownAs = path }: RestoreOptions = {},
) {
	const folder = backupFolderOf(path)
	const manifest = await readManifest(folder)
	const checked = await verifyBackup(folder, manifest)
	log(
		`${folder}: ${checked === 1 ? 'its one piece matches' : `all ${checked} pieces match`} the manifest's checksums (made ${manifest.createdAt}).`,
	)

	const { database } = manifest
	if (database.kind === 'postgresql' && !config.databaseUrl)
		throw new BackupError('This backup holds a PostgreSQL database: set DATABASE_URL to the database to restore it into (an empty one).')
	if (database.kind === 'pglite' && config.databaseUrl)
		throw new BackupError(
			`This backup holds the embedded database (PGlite): unset DATABASE_URL to restore it into ${config.pgliteDir} (DATA_DIR ${config.dataDir}).`,
		)
	const release = config.databaseUrl ? () => {} : claimEmbedded(config, 'restore')
	try {
		const refusals: string[] = []
		const target = config.databaseUrl ? await describeServer(config.databaseUrl) : null
		const occupied = target
			? target.objects > 0 && `The database ${target.name} is not empty (${target.objects} tables, views or sequences).`
			: existsSync(join(config.pgliteDir, 'PG_VERSION')) && `There is already an embedded database in ${config.pgliteDir}.`
		if (occupied) refusals.push(occupied)
		const differing = await differingDataFiles(config, manifest)
		if (differing.length > 0) refusals.push(`These files in ${config.dataDir} differ from the backup's: ${differing.join(', ')}.`)
		if (refusals.length > 0 && !clean)
			throw new BackupError(
				`${refusals.join('\n')}\nNothing was restored. To replace them with the backup, run the restore again with --clean ` +
					`(npm run restore -- ${shownAs} --clean); or restore into an empty database${config.databaseUrl ? '' : ' and a new DATA_DIR'}.`,
			)

		// The database first: if it fails, nothing else was touched. The DATA_DIR files before the stored files: loading the
		// app's storage module makes the secrets it does not find there.
		if (database.kind === 'postgresql')
			await restorePostgres(config.databaseUrl!, target!, join(folder, database.file), database.dumpedWith, clean, log)
		else await restorePglite(join(folder, database.file), config.pgliteDir, log)
		const written = await restoreDataFiles(config, folder, manifest)
		const files = await restoreFiles(config, folder, manifest.storage, log)
		log(
			`Restored: the ${database.kind === 'postgresql' ? `database ${target!.name}` : `embedded database in ${config.pgliteDir}`}, ${files}.`,
		)
		if (written > 0) log(`Restored into ${config.dataDir}: ${manifest.dataDir.files.map((f) => f.path).join(', ')}.`)
		if (manifest.secretsFromEnvironment.length > 0) log(secretsNote(manifest.secretsFromEnvironment))
		for (const secret of SECRETS) {
			const before = manifest.secretsFromEnvironment.includes(secret.setting)
			if (before === config.secretsFromEnvironment.includes(secret.setting)) continue
			log(
				`Warning: ${secret.setting} was ${before ? 'set' : `not set (the backup's ${secret.file} was used)`} where this backup was ` +
					`made, and is ${before ? 'not set' : 'set'} here: start the app with the same ${secret.setting} as there.`,
			)
		}
		return manifest
	} finally {
		release()
	}
}

async function differingDataFiles(config: BackupConfig, manifest: Manifest) {
	const differing: string[] = []
	for (const file of manifest.dataDir.files) {
		const existing = join(config.dataDir, file.path)
		if (statSync(existing, { throwIfNoEntry: false }) && (await hashFile(existing)).sha256 !== file.sha256) differing.push(file.path)
	}
	return differing
}

async function restoreDataFiles(config: BackupConfig, folder: string, manifest: Manifest) {
	let written = 0
	for (const file of manifest.dataDir.files) {
		const target = join(config.dataDir, file.path)
		if (statSync(target, { throwIfNoEntry: false }) && (await hashFile(target)).sha256 === file.sha256) continue
		await mkdir(dirname(target), { recursive: true, mode: 0o700 })
		const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`
		await copyFile(join(folder, DATA_DIR_COPY, file.path), temp)
		await chmod(temp, 0o600)
		await rename(temp, target)
		written++
	}
	return written
}

type Server = Awaited<ReturnType<typeof describeServer>>

async function restorePostgres(databaseUrl: string, server: Server, dumpFile: string, dumpedWith: string, clean: boolean, log: Log) {
	// pg_restore reads archives of its own version and older ones.
	const dumpMajor = Number(/\b(\d+)(?:\.\d+)+/.exec(dumpedWith)?.[1] ?? 0)
	const pgRestore = postgresTool('pg_restore', Math.max(server.major, dumpMajor))
	log(`Restoring into ${server.name} (PostgreSQL ${server.version}) with ${pgRestore}${clean ? ', replacing what the backup holds' : ''} …`)
	const connection = libpqConnection(databaseUrl)
	const args = ['--no-password', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error']
	if (clean) args.push('--clean', '--if-exists')
	await run(pgRestore, [...args, `--dbname=${connection.url}`, dumpFile], connection.env)
	// pg_restore brings no planner statistics; the first queries would be planned blind.
	const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
	try {
		await sql`analyze`
	} finally {
		await sql.end()
	}
}

/** Loaded into a new folder beside the target and swapped in once PGlite has opened it: a failure leaves the old one. */
async function restorePglite(tarball: string, pgliteDir: string, log: Log) {
	log(`Restoring the embedded database into ${pgliteDir} …`)
	const target = resolve(pgliteDir)
	const staging = `${target}.restoring-${randomBytes(4).toString('hex')}`
	await mkdir(staging, { recursive: true, mode: 0o700 })
	try {
		const { PGlite } = await import('@electric-sql/pglite')
		const pg = new PGlite(staging, { loadDataDir: new File([await readFile(tarball)], PGLITE_FILE, { type: 'application/x-gzip' }) })
		try {
			await pg.query('select 1')
		} finally {
			await pg.close()
		}
		await replaceFolder(staging, target)
	} catch (error) {
		await rm(staging, { recursive: true, force: true })
		throw error
	}
}

/** Puts `staging` in `target`'s place; a folder there is removed once the new one is in, and put back if that fails. */
export async function replaceFolder(staging: string, target: string) {
	const previous = `${target}.replaced-${randomBytes(4).toString('hex')}`
	const hadOne = existsSync(target)
	if (hadOne) await rename(target, previous)
	try {
		await rename(staging, target)
	} catch (error) {
		if (hadOne) await rename(previous, target)
		throw error
	}
	if (hadOne) await rm(previous, { recursive: true, force: true })
}

/** Puts every file of the backup in `folder` into the configured storage (others already there stay). */
export async function restoreFiles(config: BackupConfig, folder: string, files: Manifest['storage'], log: Log) {
	const store = await openStore(config)
	try {
		log(`Restoring ${files.count} files into ${store.source} …`)
		await eachLimit(files.objects, PARALLEL_TRANSFERS, async (object) => {
			const body = new Uint8Array(await readFile(join(folder, FILES_DIR, object.key)))
			await store.put(object.key, { body, contentType: object.contentType })
		})
		return `${files.count} files (${formatBytes(files.bytes)}) in ${store.source}`
	} finally {
		store.close()
	}
}

// ---------------------------------------------------------------- PostgreSQL

/** What the server says of itself, and how many tables, views and sequences its database holds outside the catalogs. */
async function describeServer(databaseUrl: string) {
	const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 15 })
	try {
		const [row] = await sql<{ num: number; version: string; database: string; objects: number }[]>`
			select current_setting('server_version_num')::int as num, current_setting('server_version') as version,
				current_database() as database,
				(select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
					where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
						and n.nspname not in ('pg_catalog', 'information_schema')
						and n.nspname not like 'pg\_toast%' and n.nspname not like 'pg\_temp%') as objects`
		const url = new URL(databaseUrl)
		return { major: Math.floor(row!.num / 10000), version: row!.version, name: `${row!.database} on ${url.host}`, objects: row!.objects }
	} catch (error) {
		const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1))
		if ((error as { code?: string }).code === '3D000')
			throw new BackupError(`The database ${database} does not exist: create it first (createdb ${database}).`)
		throw new BackupError(`Cannot reach the database in DATABASE_URL: ${(error as Error).message}`)
	} finally {
		await sql.end()
	}
}

/**
 * The client program for a server of this major version: Debian's /usr/lib/postgresql/<major>/bin (else the nearest
 * newer one installed: pg_dump reads older servers, never newer), or the one on PATH.
 */
export function postgresTool(name: 'pg_dump' | 'pg_restore', major: number, binRoot = POSTGRES_BIN_ROOT) {
	const installed = (existsSync(binRoot) ? readdirSync(binRoot) : [])
		.map(Number)
		.filter((version) => Number.isInteger(version) && version >= major)
		.sort((a, b) => a - b)
	for (const version of installed) {
		const tool = join(binRoot, String(version), 'bin', name)
		if (existsSync(tool)) return tool
	}
	return name
}

/** The URL without its password (which would show in the process list), and the password in libpq's variable. */
export function libpqConnection(databaseUrl: string) {
	const url = new URL(databaseUrl)
	const password = decodeURIComponent(url.password)
	url.password = ''
	const env: Record<string, string> = password ? { PGPASSWORD: password } : {}
	return { url: url.toString(), env }
}

function run(command: string, args: string[], env: Record<string, string> = {}) {
	return new Promise<{ stdout: string; stderr: string }>((resolvePromise, reject) => {
		const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
		let stdout = ''
		let stderr = ''
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
		child.on('error', (error: NodeJS.ErrnoException) =>
			reject(
				error.code === 'ENOENT'
					? new BackupError(`${command} was not found: install PostgreSQL's client programs (Debian: apt-get install postgresql-client).`)
					: error,
			),
		)
		child.on('close', (code, signal) => {
			if (code === 0) return resolvePromise({ stdout, stderr })
			const output = stderr.trim().split('\n').slice(-20).join('\n')
			reject(new BackupError(`${basename(command)} failed (${signal ?? `exit code ${code}`}):\n${output}`))
		})
	})
}

// ---------------------------------------------------------------- helpers

function pgliteVersion() {
	try {
		const pkg = JSON.parse(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as {
			version?: string
		}
		return pkg.version ?? 'unknown'
	} catch {
		return 'unknown'
	}
}

const hashBytes = (bytes: Uint8Array) => ({ size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') })
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

export function formatBytes(bytes: number) {
	if (bytes < 1024) return `${bytes} B`
	const units = ['KB', 'MB', 'GB', 'TB']
	let value = bytes / 1024
	let unit = 0
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024
		unit++
	}
	return `${value.toFixed(1)} ${units[unit]}`
}

async function eachLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
	let next = 0
	const worker = async () => {
		while (next < items.length) await work(items[next++]!)
	}
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}
