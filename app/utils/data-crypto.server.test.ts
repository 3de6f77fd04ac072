import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { createDataCrypto, DataKeyError, parseDataKeys } from './data-crypto.server.ts'

const keyA = { id: 'a', key: randomBytes(32) }
const keyB = { id: 'b-2', key: randomBytes(32) }

describe('data crypto', () => {
	test('text round-trips, looks nothing like the plain text, and differs every time', () => {
		const crypto = createDataCrypto([keyA])
		const one = crypto.sealText('Penicillin — hives', 'allergies.allergen')
		const two = crypto.sealText('Penicillin — hives', 'allergies.allergen')
		expect(one).not.toBe(two)
		expect(one).not.toContain('Penicillin')
		expect(one.startsWith('$hmh1$a$')).toBe(true)
		expect(crypto.openText(one, 'allergies.allergen')).toBe('Penicillin — hives')
		expect(crypto.openText(crypto.sealText('', 'x.y'), 'x.y')).toBe('')
	})

	test('plain text written before encryption is answered as it is', () => {
		const crypto = createDataCrypto([keyA])
		for (const plain of ['Peanuts', '$hmh1$', '$hmh1$a$short$x']) expect(crypto.openText(plain, 'allergies.allergen')).toBe(plain)
		expect(crypto.textKeyId('Peanuts')).toBeNull()
	})

	test('a sealed value opens only in its own place, untouched, under a key it holds', () => {
		const crypto = createDataCrypto([keyA])
		const sealed = crypto.sealText('Warfarin', 'medications.name')
		expect(() => crypto.openText(sealed, 'allergies.allergen')).toThrow(DataKeyError)
		const flipped = sealed.slice(0, -3) + (sealed.at(-3) === 'A' ? 'B' : 'A') + sealed.slice(-2)
		expect(() => crypto.openText(flipped, 'medications.name')).toThrow(/does not open/)
		expect(() => createDataCrypto([keyB]).openText(sealed, 'medications.name')).toThrow(/key "a", which DATA_ENCRYPTION_KEYS does not hold/)
	})

	test('after rotation the new key seals and the old one still opens', () => {
		const before = createDataCrypto([keyA])
		const after = createDataCrypto([keyB, keyA])
		const old = before.sealText('Insulin', 'medications.name')
		expect(after.openText(old, 'medications.name')).toBe('Insulin')
		expect(after.textKeyId(old)).toBe('a')
		expect(after.textKeyId(after.sealText('Insulin', 'medications.name'))).toBe('b-2')
	})

	test('files round-trip, are bound to their key, and plain files pass through', () => {
		const crypto = createDataCrypto([keyB, keyA])
		const plain = new TextEncoder().encode('%PDF-1.4 secret results')
		const sealed = crypto.sealBytes(plain, 'users/u/document/x.pdf')
		expect(Buffer.from(sealed).includes('secret')).toBe(false)
		expect(crypto.bytesKeyId(sealed)).toBe('b-2')
		expect(Buffer.from(crypto.openBytes(sealed, 'users/u/document/x.pdf')).toString()).toBe('%PDF-1.4 secret results')
		expect(() => crypto.openBytes(sealed, 'users/v/document/x.pdf')).toThrow(DataKeyError)
		expect(crypto.openBytes(plain, 'users/u/document/x.pdf')).toBe(plain)
		expect(crypto.bytesKeyId(plain)).toBeNull()
	})

	test('a lookup hash finds equal values for one purpose, under the key that made it, after rotation too', () => {
		const before = createDataCrypto([keyA])
		const after = createDataCrypto([keyB, keyA])
		const stored = before.lookupHash('jo@example.com', 'email')
		expect(stored).toBe(before.lookupHash('jo@example.com', 'email'))
		expect(stored.startsWith('a:')).toBe(true)
		expect(stored).not.toContain('jo')
		expect(stored).not.toBe(before.lookupHash('jo@example.com', 'reporter'))
		expect(stored).not.toBe(before.lookupHash('jo@example.org', 'email'))
		expect(after.lookupHash('jo@example.com', 'email').startsWith('b-2:')).toBe(true)
		expect(after.lookupHashes('jo@example.com', 'email')).toContain(stored)
		expect(createDataCrypto([keyB]).lookupHashes('jo@example.com', 'email')).not.toContain(stored)
	})

	test('keys from the environment: id:base64, 32 bytes, the first seals', () => {
		const text = `new:${keyB.key.toString('base64')}, old:${keyA.key.toString('base64url')}`
		expect(parseDataKeys(text).map((k) => k.id)).toEqual(['new', 'old'])
		expect(parseDataKeys(text)[1]!.key.equals(keyA.key)).toBe(true)
		expect(() => parseDataKeys('nokey')).toThrow(/id:key/)
		expect(() => parseDataKeys(`x:${randomBytes(16).toString('base64')}`)).toThrow(/32 bytes/)
		expect(() => parseDataKeys(`bad id:${keyA.key.toString('base64')}`)).toThrow(/key id/)
		expect(() => createDataCrypto([])).toThrow(DataKeyError)
	})
})
