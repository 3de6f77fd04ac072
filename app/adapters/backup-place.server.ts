import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { S3Config } from '#app/adapters/s3-client.server.ts'

/*
 * Where backups are kept: a folder (BACKUP_DIR) or a bucket (BACKUP_S3_BUCKET under BACKUP_S3_PREFIX). A backup is a
 * folder named by its UTC time (`2026-11-25T150000Z`) holding a manifest.json; in a bucket, the same files under
 * `<prefix><name>/`, the manifest put last, so a backup whose manifest is there is a whole one. The bucket is reached
 * with the app's own S3 client, loaded only when a bucket is used (it takes a while to load).
 */

export const MANIFEST = 'manifest.json'

export type BackupPlace = { kind: 'local'; dir: string } | { kind: 's3'; s3: S3Config; prefix: string }
export type StoredBackup = { name: string; at: Date; location: string }

/** `s3://bucket/prefix/` or the folder's absolute path. */
export function placeLocation(place: BackupPlace) {
	return place.kind === 's3' ? `s3://${place.s3.bucket}/${place.prefix}` : resolve(place.dir)
}

export function backupLocation(place: BackupPlace, name: string) {
	return place.kind === 's3' ? `${placeLocation(place)}${name}` : join(resolve(place.dir), name)
}

/** A prefix ends with one slash (or is empty), so backups sit in a folder of their own. */
export function normalPrefix(prefix: string | undefined) {
	const trimmed = (prefix ?? '').trim().replace(/^\/+|\/+$/g, '')
	return trimmed ? `${trimmed}/` : ''
}

/** The time in a backup's name (`2026-11-25T150000Z`, or `…Z-2` for a second one that second); null for another name. */
export function timeOfBackupName(name: string) {
	const match = /^(\d{4}-\d\d-\d\d)T(\d\d)(\d\d)(\d\d)Z(?:-\d+)?$/.exec(name)
	if (!match) return null
	const at = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`)
	return Number.isNaN(at.getTime()) ? null : at
}

const isBackupName = (name: string) => name !== '' && !name.startsWith('.') && !name.includes('/')

async function s3(place: Extract<BackupPlace, { kind: 's3' }>) {
	const sdk = await import('@aws-sdk/client-s3')
	const { createS3Client } = await import('#app/adapters/s3-client.server.ts')
	return { sdk, client: createS3Client(place.s3), Bucket: place.s3.bucket }
}
type S3 = Awaited<ReturnType<typeof s3>>

async function eachKey(connection: S3, Prefix: string, visit: (key: string, lastModified: Date | undefined) => void) {
	let ContinuationToken: string | undefined
	do {
		const page = await connection.client.send(
			new connection.sdk.ListObjectsV2Command({ Bucket: connection.Bucket, Prefix, ContinuationToken }),
		)
		for (const object of page.Contents ?? []) if (object.Key) visit(object.Key, object.LastModified)
		ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
	} while (ContinuationToken)
}

/**
 * The whole backups in `place`, oldest first (by name, which is by time). A backup's time is the one in its name, else
 * when its manifest was written.
 */
export async function listBackups(place: BackupPlace): Promise<StoredBackup[]> {
	const found: { name: string; written: Date }[] = []
	if (place.kind === 'local') {
		const entries = await readdir(place.dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT') return []
			throw error
		})
		for (const entry of entries) {
			if (!entry.isDirectory() || !isBackupName(entry.name)) continue
			const manifest = await stat(join(place.dir, entry.name, MANIFEST)).catch(() => null)
			if (manifest?.isFile()) found.push({ name: entry.name, written: manifest.mtime })
		}
	} else {
		const connection = await s3(place)
		try {
			await eachKey(connection, place.prefix, (key, lastModified) => {
				const rest = key.slice(place.prefix.length)
				const name = rest.slice(0, -`/${MANIFEST}`.length)
				if (rest.endsWith(`/${MANIFEST}`) && isBackupName(name)) found.push({ name, written: lastModified ?? new Date(0) })
			})
		} finally {
			connection.client.destroy()
		}
	}
	return found
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
		.map(({ name, written }) => ({ name, at: timeOfBackupName(name) ?? written, location: backupLocation(place, name) }))
}

/** Removes one backup, whole or partly uploaded; nothing when it is not there. */
export async function deleteBackup(place: BackupPlace, name: string) {
	if (!isBackupName(name)) throw new Error(`Not a backup name: ${JSON.stringify(name)}`)
	if (place.kind === 'local') return rm(join(place.dir, name), { recursive: true, force: true })
	const connection = await s3(place)
	try {
		const keys: string[] = []
		await eachKey(connection, `${place.prefix}${name}/`, (key) => keys.push(key))
		// The manifest first: from then on the rest is no backup, whatever else fails.
		keys.sort((a, b) => Number(b.endsWith(`/${MANIFEST}`)) - Number(a.endsWith(`/${MANIFEST}`)))
		for (const Key of keys) await connection.client.send(new connection.sdk.DeleteObjectCommand({ Bucket: connection.Bucket, Key }))
	} finally {
		connection.client.destroy()
	}
}

/**
 * Keeps the newest `keep` backups and deletes the older ones; `made` (the backup just made) is kept whatever its name.
 * Answers the names deleted.
 */
export async function pruneBackups(place: BackupPlace, keep: number, made?: string) {
	if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep must be a positive integer, not ${keep}`)
	const backups = (await listBackups(place)).map((b) => b.name)
	const older = backups.filter((name) => name !== made)
	const doomed = older.slice(0, Math.max(0, older.length - (made && backups.includes(made) ? keep - 1 : keep)))
	for (const name of doomed) await deleteBackup(place, name)
	return doomed
}

/** Every regular file under `folder`, as a `/`-separated relative path. */
async function filesIn(folder: string) {
	const entries = await readdir(folder, { recursive: true, withFileTypes: true })
	return entries.filter((e) => e.isFile()).map((e) => relative(folder, join(e.parentPath, e.name)).split(sep).join('/'))
}

/**
 * Puts the backup folder `folder` into the bucket as `<prefix><name>/…`, each file streamed from disk, the manifest last.
 * A failed upload removes what it had put.
 */
export async function uploadBackup(place: Extract<BackupPlace, { kind: 's3' }>, name: string, folder: string) {
	if (!isBackupName(name)) throw new Error(`Not a backup name: ${JSON.stringify(name)}`)
	const files = (await filesIn(folder)).sort((a, b) => Number(a === MANIFEST) - Number(b === MANIFEST))
	if (!files.includes(MANIFEST)) throw new Error(`${folder} has no ${MANIFEST}`)
	const connection = await s3(place)
	try {
		for (const path of files) {
			const file = join(folder, path)
			const { size } = await stat(file)
			// Given with the body, the checksum is checked by the bucket, and the file goes up as it is read (the SDK
			// would otherwise wrap a stream in aws-chunked encoding to send the checksum after it).
			const hash = createHash('sha256')
			for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
			await connection.client.send(
				new connection.sdk.PutObjectCommand({
					Bucket: connection.Bucket,
					Key: `${place.prefix}${name}/${path}`,
					Body: createReadStream(file),
					ContentLength: size,
					ChecksumSHA256: hash.digest('base64'),
					ContentType: path === MANIFEST ? 'application/json' : 'application/octet-stream',
				}),
			)
		}
	} catch (error) {
		await deleteBackup(place, name).catch(() => {})
		throw error
	} finally {
		connection.client.destroy()
	}
}

/** Copies the backup `name` from the bucket into `folder` (made if missing), each object streamed to disk. */
export async function downloadBackup(place: Extract<BackupPlace, { kind: 's3' }>, name: string, folder: string) {
	if (!isBackupName(name)) throw new Error(`Not a backup name: ${JSON.stringify(name)}`)
	const connection = await s3(place)
	try {
		const prefix = `${place.prefix}${name}/`
		const keys: string[] = []
		await eachKey(connection, prefix, (key) => keys.push(key))
		if (!keys.includes(`${prefix}${MANIFEST}`)) return false
		for (const key of keys) {
			const path = key.slice(prefix.length)
			// Only paths that stay inside the folder; the restore checks every file against the manifest anyway.
			if (!path || path.split('/').some((part) => part === '' || part === '.' || part === '..') || path.includes('\\')) continue
			const target = join(folder, path)
			await mkdir(dirname(target), { recursive: true, mode: 0o700 })
			const object = await connection.client.send(new connection.sdk.GetObjectCommand({ Bucket: connection.Bucket, Key: key }))
			await pipeline(object.Body as Readable, createWriteStream(target, { mode: 0o600 }))
		}
		return true
	} finally {
		connection.client.destroy()
	}
}
