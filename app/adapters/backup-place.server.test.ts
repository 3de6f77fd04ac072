import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
	type BackupPlace,
	deleteBackup,
	downloadBackup,
	listBackups,
	normalPrefix,
	pruneBackups,
	timeOfBackupName,
	uploadBackup,
} from './backup-place.server.ts'

const folders: string[] = []
afterAll(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))
function folder() {
	const path = mkdtempSync(join(tmpdir(), 'hmh-backup-place-'))
	folders.push(path)
	return path
}
function write(root: string, path: string, content: string | Uint8Array = path) {
	mkdirSync(dirname(join(root, path)), { recursive: true })
	writeFileSync(join(root, path), content)
}
/** A stand-in backup folder: a manifest and one piece. */
function backupFolder(root: string, name: string) {
	write(root, `${name}/db.dump`, `dump of ${name}`)
	write(root, `${name}/files/users/u1/document/a.pdf`, new Uint8Array(3000).fill(7))
	write(root, `${name}/manifest.json`, JSON.stringify({ name }))
	return join(root, name)
}

test('backup names carry their UTC time; prefixes end in one slash', () => {
	expect(timeOfBackupName('2026-11-25T150000Z')).toEqual(new Date('2026-11-25T15:00:00Z'))
	expect(timeOfBackupName('2026-11-25T150000Z-2')).toEqual(new Date('2026-11-25T15:00:00Z'))
	for (const other of ['before-upgrade', '2026-11-25', '2026-13-25T150000Z', '2026-11-25T150000Z.partial'])
		expect(timeOfBackupName(other)).toBeNull()
	expect([undefined, '', ' / ', 'nightly', '/nightly/', 'hmh/nightly//'].map(normalPrefix)).toEqual([
		'',
		'',
		'',
		'nightly/',
		'nightly/',
		'hmh/nightly/',
	])
})

describe('in a folder (BACKUP_DIR)', () => {
	test('whole backups only, oldest first, each at the time in its name (else when its manifest was written)', async () => {
		const dir = folder()
		const place: BackupPlace = { kind: 'local', dir }
		expect(await listBackups({ kind: 'local', dir: join(dir, 'missing') })).toEqual([])
		backupFolder(dir, '2026-11-26T030000Z')
		backupFolder(dir, '2026-11-25T030000Z')
		backupFolder(dir, 'before-upgrade')
		utimesSync(join(dir, 'before-upgrade/manifest.json'), new Date('2026-11-20T10:00:00Z'), new Date('2026-11-20T10:00:00Z'))
		write(dir, '.2026-11-27T030000Z.0a1b2c3d.partial/db.dump') // a backup under way
		write(dir, '2026-11-24T030000Z/db.dump') // no manifest: not a whole backup
		write(dir, 'notes.txt')
		expect(await listBackups(place)).toEqual([
			{ name: '2026-11-25T030000Z', at: new Date('2026-11-25T03:00:00Z'), location: join(dir, '2026-11-25T030000Z') },
			{ name: '2026-11-26T030000Z', at: new Date('2026-11-26T03:00:00Z'), location: join(dir, '2026-11-26T030000Z') },
			{ name: 'before-upgrade', at: new Date('2026-11-20T10:00:00Z'), location: join(dir, 'before-upgrade') },
		])
	})

	test('BACKUP_KEEP: the oldest beyond the number are deleted, the one just made never; nothing else is touched', async () => {
		const dir = folder()
		const place: BackupPlace = { kind: 'local', dir }
		for (const day of [21, 22, 23, 24]) backupFolder(dir, `2026-11-${day}T030000Z`)
		write(dir, '.2026-11-25T030000Z.0a1b2c3d.partial/db.dump')
		write(dir, '2026-11-01T030000Z/db.dump')
		expect(await pruneBackups(place, 2, '2026-11-24T030000Z')).toEqual(['2026-11-21T030000Z', '2026-11-22T030000Z'])
		expect(readdirSync(dir).sort()).toEqual([
			'.2026-11-25T030000Z.0a1b2c3d.partial',
			'2026-11-01T030000Z',
			'2026-11-23T030000Z',
			'2026-11-24T030000Z',
		])
		// A clock set back made the new one sort first: it stays all the same.
		backupFolder(dir, '2026-11-01T000000Z')
		expect(await pruneBackups(place, 1, '2026-11-01T000000Z')).toEqual(['2026-11-23T030000Z', '2026-11-24T030000Z'])
		expect((await listBackups(place)).map((b) => b.name)).toEqual(['2026-11-01T000000Z'])
		expect(await pruneBackups(place, 5)).toEqual([])
		await expect(pruneBackups(place, 0)).rejects.toThrow(/positive integer/)
	})
})

describe('in a bucket (BACKUP_S3_BUCKET)', () => {
	let server: S3rver
	let place: Extract<BackupPlace, { kind: 's3' }>
	beforeAll(async () => {
		server = new S3rver({
			port: 0,
			address: '127.0.0.1',
			silent: true,
			directory: folder(),
			configureBuckets: [{ name: 'backups', configs: [] }],
		})
		const { port } = await server.run()
		const s3 = {
			bucket: 'backups',
			region: 'us-east-1',
			endpoint: `http://127.0.0.1:${port}`,
			accessKeyId: 'S3RVER',
			secretAccessKey: 'S3RVER',
			forcePathStyle: true,
		}
		place = { kind: 's3', s3, prefix: 'hmh/nightly/' }
	})
	afterAll(() => server?.close())

	test('uploaded under the prefix, listed, downloaded byte for byte, deleted, pruned', async () => {
		const local = folder()
		const names = ['2026-11-23T030000Z', '2026-11-24T030000Z', '2026-11-25T030000Z']
		for (const name of names) await uploadBackup(place, name, backupFolder(local, name))
		// Another prefix and a half-uploaded backup (no manifest) are no backups of this place.
		await uploadBackup({ ...place, prefix: 'other/' }, '2026-11-26T030000Z', backupFolder(local, '2026-11-26T030000Z'))
		const half = folder()
		write(half, 'manifest.json', '{}')
		await uploadBackup(place, '2026-11-27T030000Z', half)
		await deleteBackup(place, '2026-11-27T030000Z')

		expect(await listBackups(place)).toEqual(
			names.map((name) => ({ name, at: timeOfBackupName(name), location: `s3://backups/hmh/nightly/${name}` })),
		)
		const copy = join(folder(), 'copy')
		expect(await downloadBackup(place, '2026-11-24T030000Z', copy)).toBe(true)
		for (const path of ['db.dump', 'files/users/u1/document/a.pdf', 'manifest.json'])
			expect(readFileSync(join(copy, path))).toEqual(readFileSync(join(local, '2026-11-24T030000Z', path)))
		expect(await downloadBackup(place, '2026-11-01T030000Z', join(folder(), 'none'))).toBe(false)

		expect(await pruneBackups(place, 2, '2026-11-25T030000Z')).toEqual(['2026-11-23T030000Z'])
		expect((await listBackups(place)).map((b) => b.name)).toEqual(['2026-11-24T030000Z', '2026-11-25T030000Z'])
		expect((await listBackups({ ...place, prefix: 'other/' })).map((b) => b.name)).toEqual(['2026-11-26T030000Z'])
	})

	test('a bucket that does not answer fails the listing', async () => {
		await expect(listBackups({ ...place, s3: { ...place.s3, bucket: 'missing' } })).rejects.toThrow()
	})
})
