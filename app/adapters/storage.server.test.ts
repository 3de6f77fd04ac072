import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLocalStorage, createS3Storage, type FileStorage, newFileKey } from './storage.server.ts'

const bytes = (...values: number[]) => new Uint8Array(values)

function contract(name: string, setup: () => Promise<{ storage: FileStorage; teardown: () => Promise<void> }>) {
	describe(`${name} storage`, () => {
		let storage: FileStorage
		let teardown = async () => {}
		beforeAll(async () => {
			;({ storage, teardown } = await setup())
		})
		afterAll(() => teardown())

		test('put then get returns the same bytes and content type', async () => {
			const body = bytes(0x89, 0x50, 0x4e, 0x47, 0, 255, 10, 13)
			await storage.put('users/u1/picture/a.png', body, 'image/png')
			expect(await storage.get('users/u1/picture/a.png')).toEqual({ body, contentType: 'image/png', size: 8 })
		})

		test('put replaces an existing file', async () => {
			await storage.put('users/u1/document/r.pdf', bytes(1), 'application/pdf')
			await storage.put('users/u1/document/r.pdf', bytes(2, 3), 'application/msword')
			expect(await storage.get('users/u1/document/r.pdf')).toEqual({
				body: bytes(2, 3),
				contentType: 'application/msword',
				size: 2,
			})
		})

		test('get of a missing key is null', async () => {
			expect(await storage.get('users/nobody/picture/missing.png')).toBeNull()
		})

		test('delete removes a file, and deleting a missing one is not an error', async () => {
			await storage.put('users/u2/document/x.pdf', bytes(1, 2, 3), 'application/pdf')
			await storage.delete('users/u2/document/x.pdf')
			expect(await storage.get('users/u2/document/x.pdf')).toBeNull()
			await expect(storage.delete('users/u2/document/x.pdf')).resolves.toBeUndefined()
		})

		test('deletePrefix removes every key under the prefix and nothing else', async () => {
			const inside = ['users/u3/picture/a.jpg', 'users/u3/insurance-card/b.png', 'users/u3/document/c.pdf', 'users/u3/document/d.docx']
			const outside = ['users/u30/picture/keep.jpg', 'users/u4/picture/keep.jpg']
			for (const key of [...inside, ...outside]) await storage.put(key, bytes(7), 'image/jpeg')
			await storage.deletePrefix('users/u3/')
			for (const key of inside) expect(await storage.get(key)).toBeNull()
			for (const key of outside) expect(await storage.get(key)).not.toBeNull()
			await expect(storage.deletePrefix('users/nobody/')).resolves.toBeUndefined()
		})

		test('deletePrefix matches a prefix that ends inside a name, as S3 does', async () => {
			await storage.put('users/u5/document/report-1.pdf', bytes(1), 'application/pdf')
			await storage.put('users/u5/document/report-2.pdf', bytes(2), 'application/pdf')
			await storage.put('users/u5/document/scan.pdf', bytes(3), 'application/pdf')
			await storage.deletePrefix('users/u5/document/report')
			expect(await storage.get('users/u5/document/report-1.pdf')).toBeNull()
			expect(await storage.get('users/u5/document/report-2.pdf')).toBeNull()
			expect(await storage.get('users/u5/document/scan.pdf')).not.toBeNull()
		})

		test('keeps a key made by newFileKey', async () => {
			const key = newFileKey('user_1', 'insurance-card', 'webp')
			expect(key).toMatch(/^users\/user_1\/insurance-card\/[A-Za-z0-9_-]{24}\.webp$/)
			await storage.put(key, bytes(1), 'image/webp')
			expect((await storage.get(key))?.contentType).toBe('image/webp')
		})

		test('ping answers while files can be stored', async () => {
			await expect(storage.ping()).resolves.toBeUndefined()
		})

		test('refuses keys that could escape the storage root', async () => {
			await expect(storage.put('../x', bytes(1), 'text/plain')).rejects.toThrow('Invalid storage key')
			await expect(storage.get('/etc/passwd')).rejects.toThrow('Invalid storage key')
			await expect(storage.delete('users\\x')).rejects.toThrow('Invalid storage key')
			await expect(storage.deletePrefix('')).rejects.toThrow('Invalid storage key')
		})
	})
}

contract('local', async () => {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-storage-'))
	return { storage: createLocalStorage(dir), teardown: () => rm(dir, { recursive: true, force: true }) }
})

contract('S3 (s3rver)', async () => {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-s3rver-'))
	const server = new S3rver({
		port: 0,
		address: '127.0.0.1',
		silent: true,
		directory: dir,
		configureBuckets: [{ name: 'hmh-test', configs: [] }],
	})
	const { port } = await server.run()
	const storage = createS3Storage({
		bucket: 'hmh-test',
		region: 'us-east-1',
		endpoint: `http://127.0.0.1:${port}`,
		accessKeyId: 'S3RVER',
		secretAccessKey: 'S3RVER',
		forcePathStyle: true,
	})
	return {
		storage,
		teardown: async () => {
			await server.close()
			await rm(dir, { recursive: true, force: true })
		},
	}
})

test('local storage writes no temporary files that outlive a put', async () => {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-storage-'))
	try {
		await createLocalStorage(dir).put('users/u1/picture/a.png', bytes(1), 'image/png')
		expect((await readdir(join(dir, 'users/u1/picture'))).sort()).toEqual(['a.png', 'a.png.meta.json'])
	} finally {
		await rm(dir, { recursive: true, force: true })
	}
})

test('ping fails when files cannot be stored: a storage root that is a file, a bucket that does not exist', async () => {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-storage-'))
	const bucketDir = await mkdtemp(join(tmpdir(), 'hmh-s3rver-'))
	const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: bucketDir, configureBuckets: [] })
	try {
		await writeFile(join(dir, 'not-a-folder'), 'x')
		await expect(createLocalStorage(join(dir, 'not-a-folder')).ping()).rejects.toThrow()
		const { port } = await server.run()
		const missing = createS3Storage({
			bucket: 'no-such-bucket',
			region: 'us-east-1',
			endpoint: `http://127.0.0.1:${port}`,
			accessKeyId: 'S3RVER',
			secretAccessKey: 'S3RVER',
			forcePathStyle: true,
		})
		await expect(missing.ping()).rejects.toThrow()
	} finally {
		await server.close().catch(() => {})
		for (const folder of [dir, bucketDir]) await rm(folder, { recursive: true, force: true })
	}
})
