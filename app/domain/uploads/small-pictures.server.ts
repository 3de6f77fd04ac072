import { storage } from '#app/adapters/storage.server.ts'
import { heavyWork } from '#app/domain/heavy-work.server.ts'
import { render } from '#app/domain/render/pool.server.ts'
import type { SmallFormat } from './images.server.ts'

/*
 * A profile picture is kept as uploaded (re-encoded) for its owner, and once more small, in WebP and JPEG, beside it in
 * the store: the responder page's photo is a few KB on a slow connection, and the wallet card embeds the JPEG.
 */

const FORMATS: readonly SmallFormat[] = ['webp', 'jpeg']
const CONTENT_TYPES: Record<SmallFormat, string> = { webp: 'image/webp', jpeg: 'image/jpeg' }

/** Where a picture's small copy is kept: beside it, under the same owner's prefix (account deletion removes it too). */
export const smallPictureKey = (key: string, format: SmallFormat) => `${key}.small.${format === 'webp' ? 'webp' : 'jpg'}`

/** Every small copy a stored file may have (none unless it is a profile picture). */
export const smallPictureKeys = (key: string) => (key.includes('/picture/') ? FORMATS.map((format) => smallPictureKey(key, format)) : [])

/** Makes and stores the small copies of a picture, in its owner's line of the heavy-work pool; answers them. */
export async function storeSmallPictures(userId: string, key: string, bytes: Uint8Array) {
	const small = await heavyWork(userId, () => render({ kind: 'small-pictures', bytes }))
	await Promise.all(FORMATS.map((format) => storage.put(smallPictureKey(key, format), small[format], CONTENT_TYPES[format])))
	return small
}

/**
 * A picture's small copy, made now from the picture when it has none yet (pictures stored before there were copies, or
 * a copy lost or sealed under a key since removed). Null when the picture itself is gone. `requester` is whose line of
 * the heavy-work pool the making waits in: the picture's owner.
 */
export async function smallPicture(requester: string, key: string, format: SmallFormat) {
	const kept = await storage.get(smallPictureKey(key, format)).catch(() => null)
	if (kept) return kept
	const picture = await storage.get(key)
	if (!picture) return null
	const body = (await storeSmallPictures(requester, key, picture.body))[format]
	return { body, contentType: CONTENT_TYPES[format], size: body.byteLength }
}
