import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import {
	DeleteObjectCommand,
	DeleteObjectsCommand,
	GetObjectCommand,
	HeadBucketCommand,
	ListObjectsV2Command,
	PutObjectCommand,
	S3ServiceException,
} from '@aws-sdk/client-s3'
import { createS3Client, type S3Config } from '#app/adapters/s3-client.server.ts'
import { env } from '#app/utils/env.server.ts'
import { sealedData } from '#app/utils/sealed-data.server.ts'

export type StoredFile = { body: Uint8Array; contentType: string; size: number }

export interface FileStorage {
	put(key: string, body: Uint8Array, contentType: string): Promise<void>
	/** null when the key does not exist */
	get(key: string): Promise<StoredFile | null>
	/** no error when the key does not exist */
	delete(key: string): Promise<void>
	/** deletes every key that starts with prefix, e.g. `users/{id}/` */
	deletePrefix(prefix: string): Promise<void>
	/** resolves when files can be stored now (the folder is writable, the bucket answers); throws otherwise */
	ping(): Promise<void>
}

const FALLBACK_TYPE = 'application/octet-stream'
const META_SUFFIX = '.meta.json'

/** Keys are relative paths made by the app; anything that could escape the root is a bug, so throw. */
function assertKey(key: string) {
	const bad =
		!key ||
		key.includes('..') ||
		key.includes('\\') ||
		key.includes('\0') ||
		key.startsWith('/') ||
		/^[a-z]:/i.test(key) ||
		key.endsWith(META_SUFFIX)
	if (bad) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`)
}

export function newFileKey(userId: string, purpose: 'picture' | 'insurance-card' | 'document', ext: string) {
	if (!/^[A-Za-z0-9_-]+$/.test(userId) || !/^[a-z0-9]+$/.test(ext)) throw new Error('Invalid file key parts')
	return `users/${userId}/${purpose}/${randomBytes(18).toString('base64url')}.${ext}`
}

function isMissing(error: unknown) {
	return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'
}

export function createLocalStorage(rootDir: string): FileStorage {
	const root = resolve(rootDir)
	const pathOf = (key: string) => {
		assertKey(key)
		return join(root, key)
	}

	// Write to a temporary sibling and rename, so a reader never sees half a file.
	async function writeAtomic(file: string, data: Uint8Array | string) {
		await mkdir(dirname(file), { recursive: true, mode: 0o700 })
		const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
		try {
			await writeFile(temp, data, { mode: 0o600 })
			await rename(temp, file)
		} catch (error) {
			await rm(temp, { force: true })
			throw error
		}
	}

	async function readContentType(file: string) {
		try {
			const meta = JSON.parse(await readFile(file + META_SUFFIX, 'utf8')) as { contentType?: unknown }
			return typeof meta.contentType === 'string' ? meta.contentType : FALLBACK_TYPE
		} catch (error) {
			if (isMissing(error)) return FALLBACK_TYPE
			throw error
		}
	}

	return {
		async put(key, body, contentType) {
			const file = pathOf(key)
			await writeAtomic(file + META_SUFFIX, JSON.stringify({ contentType }))
			await writeAtomic(file, body)
		},
		async get(key) {
			const file = pathOf(key)
			let body: Uint8Array
			try {
				body = new Uint8Array(await readFile(file))
			} catch (error) {
				if (isMissing(error)) return null
				throw error
			}
			return { body, contentType: await readContentType(file), size: body.byteLength }
		},
		async delete(key) {
			const file = pathOf(key)
			await rm(file, { force: true })
			await rm(file + META_SUFFIX, { force: true })
		},
		async deletePrefix(prefix) {
			assertKey(prefix)
			if (prefix.endsWith('/')) return rm(join(root, prefix), { recursive: true, force: true })
			// A prefix that ends inside a name (`users/ab` matches `users/abc/…`), as S3 understands it.
			const dir = join(root, dirname(prefix))
			let entries: string[]
			try {
				entries = await readdir(dir, { recursive: true })
			} catch (error) {
				if (isMissing(error)) return
				throw error
			}
			const base = dirname(prefix) === '.' ? '' : `${dirname(prefix)}/`
			for (const entry of entries) {
				if ((base + entry.split('\\').join('/')).startsWith(prefix)) await rm(join(dir, entry), { recursive: true, force: true })
			}
		},
		async ping() {
			await mkdir(root, { recursive: true, mode: 0o700 })
			await access(root, constants.W_OK)
		},
	}
}

export type { S3Config }

export function createS3Storage(config: S3Config): FileStorage {
	const Bucket = config.bucket
	const client = createS3Client(config)

	return {
		async put(key, body, contentType) {
			assertKey(key)
			await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }))
		},
		async get(key) {
			assertKey(key)
			try {
				const object = await client.send(new GetObjectCommand({ Bucket, Key: key }))
				const body = object.Body ? await object.Body.transformToByteArray() : new Uint8Array()
				return { body, contentType: object.ContentType ?? FALLBACK_TYPE, size: body.byteLength }
			} catch (error) {
				if (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)) return null
				throw error
			}
		},
		async delete(key) {
			assertKey(key)
			await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
		},
		async deletePrefix(prefix) {
			assertKey(prefix)
			let ContinuationToken: string | undefined
			do {
				const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }))
				const Objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []))
				if (Objects.length > 0) {
					const result = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }))
					const failed = result.Errors?.[0]
					if (failed) throw new Error(`S3 could not delete ${failed.Key}: ${failed.Code} ${failed.Message}`)
				}
				ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
			} while (ContinuationToken)
		},
		async ping() {
			await client.send(new HeadBucketCommand({ Bucket }))
		},
	}
}

let instance: FileStorage | undefined

function defaultStorage() {
	instance ??= env.S3_BUCKET
		? createS3Storage({
				bucket: env.S3_BUCKET,
				region: env.S3_REGION,
				endpoint: env.S3_ENDPOINT,
				accessKeyId: env.S3_ACCESS_KEY_ID,
				secretAccessKey: env.S3_SECRET_ACCESS_KEY,
				forcePathStyle: env.S3_FORCE_PATH_STYLE,
			})
		: createLocalStorage(join(env.DATA_DIR, 'uploads'))
	return instance
}

/** The files as stored (sealed): for re-sealing under a new key and for backups, never to answer a request. */
export const sealedStorage: FileStorage = {
	put: (key, body, contentType) => defaultStorage().put(key, body, contentType),
	get: (key) => defaultStorage().get(key),
	delete: (key) => defaultStorage().delete(key),
	deletePrefix: (prefix) => defaultStorage().deletePrefix(prefix),
	ping: () => defaultStorage().ping(),
}

/**
 * S3 when S3_BUCKET is set, else a folder under DATA_DIR; created on first use. Every file is sealed (AES-256-GCM,
 * bound to its key) before it leaves the app and opened when read back: the folder or bucket holds only ciphertext.
 */
export const storage: FileStorage = {
	put: (key, body, contentType) => defaultStorage().put(key, sealedData.sealBytes(body, key), contentType),
	async get(key) {
		const file = await defaultStorage().get(key)
		if (!file) return null
		const body = sealedData.openBytes(file.body, key)
		return { ...file, body, size: body.byteLength }
	},
	delete: (key) => defaultStorage().delete(key),
	deletePrefix: (prefix) => defaultStorage().deletePrefix(prefix),
	ping: () => defaultStorage().ping(),
}
