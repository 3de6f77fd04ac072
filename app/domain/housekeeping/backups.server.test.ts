import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, afterEach, expect, test } from 'vitest'
import { uploadBackup } from '#app/adapters/backup-place.server.ts'
import { env } from '#app/utils/env.server.ts'
import { backupPlace, NEWEST_BACKUP_CACHE_MS, newestBackup } from './backups.server.ts'

const folders: string[] = []
afterAll(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))
function folder() {
	const path = mkdtempSync(join(tmpdir(), 'hmh-newest-backup-'))
	folders.push(path)
	return path
}
function backup(dir: string, name: string) {
	mkdirSync(join(dir, name), { recursive: true })
	writeFileSync(join(dir, name, 'manifest.json'), '{}')
}

// Named one by one: a setting that is not set has no key in env, and a later test file must find it unset again.
const saved = {
	BACKUP_DIR: env.BACKUP_DIR,
	BACKUP_S3_BUCKET: env.BACKUP_S3_BUCKET,
	BACKUP_S3_PREFIX: env.BACKUP_S3_PREFIX,
	S3_ENDPOINT: env.S3_ENDPOINT,
	S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID,
	S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY,
	S3_FORCE_PATH_STYLE: env.S3_FORCE_PATH_STYLE,
}
afterEach(() => Object.assign(env, saved))

test('the newest backup in BACKUP_DIR, listed once every few minutes', async () => {
	const dir = folder()
	env.BACKUP_DIR = dir
	const now = Date.now()
	expect(await newestBackup({ now })).toBeNull()
	backup(dir, '2026-11-26T030000Z')
	backup(dir, '2026-11-27T030000Z')
	// Still the answer of a minute ago: a metrics scrape does not list the folder each time.
	expect(await newestBackup({ now: now + 60_000 })).toBeNull()
	const later = now + NEWEST_BACKUP_CACHE_MS + 1
	expect(await newestBackup({ now: later })).toEqual({ at: new Date('2026-11-27T03:00:00Z'), location: join(dir, '2026-11-27T030000Z') })
	// Another place is looked at at once.
	const other = folder()
	backup(other, '2026-11-25T030000Z')
	env.BACKUP_DIR = other
	expect(await newestBackup({ now: later })).toMatchObject({ at: new Date('2026-11-25T03:00:00Z') })
})

test('without BACKUP_DIR, DATA_DIR/backups; with BACKUP_S3_BUCKET, the bucket with the app’s S3 settings', async () => {
	env.BACKUP_DIR = undefined
	expect(backupPlace()).toEqual({ kind: 'local', dir: join(env.DATA_DIR, 'backups') })
	const server = new S3rver({
		port: 0,
		address: '127.0.0.1',
		silent: true,
		directory: folder(),
		configureBuckets: [{ name: 'backups', configs: [] }],
	})
	const { port } = await server.run()
	try {
		Object.assign(env, {
			BACKUP_S3_BUCKET: 'backups',
			BACKUP_S3_PREFIX: 'nightly',
			S3_ENDPOINT: `http://127.0.0.1:${port}`,
			S3_ACCESS_KEY_ID: 'S3RVER',
			S3_SECRET_ACCESS_KEY: 'S3RVER',
			S3_FORCE_PATH_STYLE: true,
		})
		const place = backupPlace()
		expect(place).toMatchObject({ kind: 's3', prefix: 'nightly/', s3: { bucket: 'backups', forcePathStyle: true } })
		const local = folder()
		backup(local, '2026-11-27T030000Z')
		await uploadBackup(place as never, '2026-11-27T030000Z', join(local, '2026-11-27T030000Z'))
		expect(await newestBackup()).toEqual({ at: new Date('2026-11-27T03:00:00Z'), location: 's3://backups/nightly/2026-11-27T030000Z' })
		// A bucket that cannot be listed: no backup to show (and a line in the log).
		env.BACKUP_S3_BUCKET = 'missing'
		expect(await newestBackup()).toBeNull()
	} finally {
		await server.close()
	}
})
