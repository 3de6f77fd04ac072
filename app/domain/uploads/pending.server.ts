import { and, eq, lt, notInArray, or } from 'drizzle-orm'
import { newFileKey, storage } from '#app/adapters/storage.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { newestIds } from '#db/queries.ts'
import { db, type Executor } from '#db/client.ts'
import { pendingUploads } from '#db/schema.ts'
import type { UploadPurpose } from './file-type.ts'
import { smallPictureKeys, storeSmallPictures } from './small-pictures.server.ts'
import { checkFile, type CheckedFile } from './uploads.server.ts'

/** A person keeps at most this many files waiting to be used, for at most a day; older ones go first. */
export const PENDING_LIMIT = 20
export const PENDING_LIFETIME_MS = 24 * 60 * 60 * 1000

const PENDING_PATH = /^\/files\/upload\/(\d{1,10})$/

/** The URL an upload answers with: the owner can open it, and send it back to put the file in its place. */
export function pendingUploadUrl(id: number) {
	return `/files/upload/${id}`
}

/** The upload id in a URL the person sends back, written relative (as we answer) or absolute. */
export function pendingUploadId(url: string) {
	let path: string
	try {
		path = new URL(url, 'http://localhost').pathname
	} catch {
		return null
	}
	const id = PENDING_PATH.exec(path)?.[1]
	return id ? Number(id) : null
}

/** Stores a checked file under the owner's prefix (a picture with its small copies); returns its key. */
export async function storeFile(userId: string, purpose: UploadPurpose, file: CheckedFile) {
	const key = newFileKey(userId, purpose, file.ext)
	await storage.put(key, file.bytes, file.mime)
	// Best made now, so the first responder does not wait; if the pool is full, the first request for one makes it.
	if (purpose === 'picture') await storeSmallPictures(userId, key, file.bytes).catch(() => undefined)
	return key
}

/** Old files (and a picture's small copies) are removed only after the database no longer points at them. */
export async function discardFiles(...keys: Array<string | null | undefined>) {
	const all = keys.filter((k): k is string => Boolean(k)).flatMap((k) => [k, ...smallPictureKeys(k)])
	await Promise.all(all.map((k) => storage.delete(k)))
}

/** Checks and keeps a file that is not yet part of anything (refused on `field`); answers its URL. */
export async function keepUpload(userId: string, purpose: UploadPurpose, upload: unknown, field: string) {
	const file = await checkFile(userId, upload, purpose, field)
	const storageKey = await storeFile(userId, purpose, file)
	const [row] = await db
		.insert(pendingUploads)
		.values({ userId, purpose, storageKey, fileName: file.name, fileType: file.ext, fileSize: file.size })
		.returning()
	await prune(userId)
	return { url: pendingUploadUrl(row!.id), fileName: row!.fileName, fileType: row!.fileType, fileSize: row!.fileSize }
}

async function prune(userId: string) {
	const newest = newestIds(pendingUploads, userId, PENDING_LIMIT)
	const removed = await db
		.delete(pendingUploads)
		.where(
			and(
				eq(pendingUploads.userId, userId),
				or(lt(pendingUploads.createdAt, new Date(Date.now() - PENDING_LIFETIME_MS)), notInArray(pendingUploads.id, newest)),
			),
		)
		.returning({ key: pendingUploads.storageKey })
	await discardFiles(...removed.map((r) => r.key))
}

export type TakenFile = { key: string; name: string; ext: string; size: number }

/**
 * Takes the person's own waiting upload of this purpose named by `url`, inside the caller's transaction: the row goes,
 * and the file is the caller's to keep. Anything else (someone else's file, a used one, a foreign URL) is refused.
 */
export async function takeUpload(tx: Executor, userId: string, url: string, purpose: UploadPurpose, field: string): Promise<TakenFile> {
	const id = pendingUploadId(url)
	const [row] = id
		? await tx
				.delete(pendingUploads)
				.where(and(eq(pendingUploads.id, id), eq(pendingUploads.userId, userId), eq(pendingUploads.purpose, purpose)))
				.returning()
		: []
	if (!row) throw new DomainError(400, notUploaded(field), field)
	return { key: row.storageKey, name: row.fileName, ext: row.fileType, size: row.fileSize }
}

export const notUploaded = (field: string) => `${field} must be the url of a file you uploaded`

/** The stored file behind a waiting upload's URL, for its owner only. */
export async function pendingUploadKey(userId: string, id: number) {
	const [row] = await db
		.select({ key: pendingUploads.storageKey })
		.from(pendingUploads)
		.where(and(eq(pendingUploads.id, id), eq(pendingUploads.userId, userId)))
	return row?.key ?? null
}
