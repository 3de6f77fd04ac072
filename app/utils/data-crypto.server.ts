import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

/**
 * Medical data at rest: AES-256-GCM under keys that have ids. The first key seals, every key opens, so a new key can
 * be put first and the data re-sealed (`npm run data:rekey`) before the old one is removed. What is sealed names the
 * place it belongs to (a column, a file's key) as associated data: moved elsewhere, it no longer opens.
 */
export type DataKey = { id: string; key: Buffer }

const IV_BYTES = 12
const TAG_BYTES = 16
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/

/** `$hmh1$<key id>$<iv>$<ciphertext and tag>`, base64url: text stays text, and a sealed value is told from plain text. */
const SEALED_TEXT = /^\$hmh1\$([A-Za-z0-9_-]{1,32})\$([A-Za-z0-9_-]{16})\$([A-Za-z0-9_-]{22,})$/

/** Files start with these bytes, then one byte of key id length, the key id, the IV, the ciphertext and the tag. */
const FILE_MAGIC = Buffer.from('HMHE1', 'latin1')

export class DataKeyError extends Error {}

export function createDataCrypto(keys: readonly DataKey[]) {
	const [current] = keys
	if (!current) throw new DataKeyError('No data encryption key')
	for (const { id, key } of keys) {
		if (!KEY_ID.test(id)) throw new DataKeyError(`Invalid data encryption key id: ${JSON.stringify(id)}`)
		if (key.byteLength !== 32) throw new DataKeyError(`Data encryption key ${id} must be 32 bytes`)
	}
	const byId = new Map(keys.map((k) => [k.id, k.key]))
	// Lookups get a key of their own, derived from each data key: the encryption key is never used for two things.
	const lookupKeys = keys.map(({ id, key }) => ({ id, key: createHmac('sha256', key).update('hmh-lookup-v1').digest() }))
	const lookupHash = ({ id, key }: { id: string; key: Buffer }, value: string, purpose: string) =>
		`${id}:${createHmac('sha256', key).update(`${purpose}\0${value}`).digest('base64url').slice(0, 32)}`

	function keyFor(id: string, place: string) {
		const key = byId.get(id)
		if (!key) throw new DataKeyError(`${place} is sealed under key "${id}", which DATA_ENCRYPTION_KEYS does not hold`)
		return key
	}

	function seal(plain: Uint8Array, place: string) {
		const iv = randomBytes(IV_BYTES)
		const cipher = createCipheriv('aes-256-gcm', current!.key, iv).setAAD(Buffer.from(place))
		const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()])
		return { iv, body }
	}

	function open(keyId: string, iv: Uint8Array, body: Uint8Array, place: string) {
		if (body.byteLength < TAG_BYTES) throw new DataKeyError(`${place} is damaged`)
		const decipher = createDecipheriv('aes-256-gcm', keyFor(keyId, place), iv).setAAD(Buffer.from(place))
		decipher.setAuthTag(body.subarray(body.byteLength - TAG_BYTES))
		try {
			return Buffer.concat([decipher.update(body.subarray(0, body.byteLength - TAG_BYTES)), decipher.final()])
		} catch {
			throw new DataKeyError(`${place} does not open with key "${keyId}": damaged, or moved from elsewhere`)
		}
	}

	return {
		currentKeyId: current.id,

		sealText(plain: string, place: string) {
			const { iv, body } = seal(Buffer.from(plain, 'utf8'), place)
			return `$hmh1$${current.id}$${iv.toString('base64url')}$${body.toString('base64url')}`
		},

		/** Plain text written before encryption was turned on is answered as it is (data:rekey seals it). */
		openText(stored: string, place: string) {
			const parts = SEALED_TEXT.exec(stored)
			if (!parts) return stored
			return open(parts[1]!, Buffer.from(parts[2]!, 'base64url'), Buffer.from(parts[3]!, 'base64url'), place).toString('utf8')
		},

		/** The key a stored text is sealed under; null for plain text. */
		textKeyId(stored: string) {
			return SEALED_TEXT.exec(stored)?.[1] ?? null
		},

		/**
		 * A keyed hash under the first key, for finding rows by a value that is itself sealed (an e-mail's recipient):
		 * `<key id>:<hash>`. Equal values give equal hashes for one purpose; nobody without the key can tell them.
		 */
		lookupHash(value: string, purpose: string) {
			return lookupHash(lookupKeys[0]!, value, purpose)
		},

		/** The value's hash under every key: what a lookup matches, so rows hashed before a new key came first are found. */
		lookupHashes(value: string, purpose: string) {
			return lookupKeys.map((key) => lookupHash(key, value, purpose))
		},

		sealBytes(plain: Uint8Array, place: string) {
			const { iv, body } = seal(plain, place)
			const id = Buffer.from(current.id, 'latin1')
			return new Uint8Array(Buffer.concat([FILE_MAGIC, Buffer.from([id.byteLength]), id, iv, body]))
		},

		/** A file stored before encryption was turned on is answered as it is. */
		openBytes(stored: Uint8Array, place: string) {
			const header = fileHeader(stored)
			if (!header) return stored
			return new Uint8Array(open(header.keyId, header.iv, stored.subarray(header.bodyAt), place))
		},

		bytesKeyId(stored: Uint8Array) {
			return fileHeader(stored)?.keyId ?? null
		},
	}
}
export type DataCrypto = ReturnType<typeof createDataCrypto>

function fileHeader(stored: Uint8Array) {
	const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)
	if (bytes.byteLength < FILE_MAGIC.byteLength + 1 || !bytes.subarray(0, FILE_MAGIC.byteLength).equals(FILE_MAGIC)) return null
	const idLength = bytes[FILE_MAGIC.byteLength]!
	const idAt = FILE_MAGIC.byteLength + 1
	const ivAt = idAt + idLength
	const keyId = bytes.subarray(idAt, ivAt).toString('latin1')
	if (!KEY_ID.test(keyId) || bytes.byteLength < ivAt + IV_BYTES + TAG_BYTES) return null
	return { keyId, iv: bytes.subarray(ivAt, ivAt + IV_BYTES), bodyAt: ivAt + IV_BYTES }
}

/** `id:base64key,id2:base64key` (the first seals); each key is 32 random bytes, e.g. `openssl rand -base64 32`. */
export function parseDataKeys(text: string): DataKey[] {
	return text
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean)
		.map((entry) => {
			const colon = entry.indexOf(':')
			if (colon < 1) throw new DataKeyError('each entry must be id:key (the key base64, 32 bytes)')
			const id = entry.slice(0, colon)
			// Node's base64 reads the URL-safe alphabet too.
			const key = Buffer.from(entry.slice(colon + 1).trim(), 'base64')
			if (!KEY_ID.test(id)) throw new DataKeyError(`key id "${id}" must be 1-32 letters, digits, - or _`)
			if (key.byteLength !== 32) throw new DataKeyError(`key "${id}" must be 32 bytes in base64 (openssl rand -base64 32)`)
			return { id, key }
		})
}
