import { randomBytes, randomInt } from 'node:crypto'
import { db } from '#db/client.ts'
import { qrCodes } from '#db/schema.ts'
import { PIN_ALPHABET, PIN_LENGTH } from '#app/domain/accounts/schemas.ts'
import { env } from '#app/utils/env.server.ts'
import { MAX_BATCH } from './batch.ts'

/** 18 random bytes: 144 bits, URL-safe, never derived from the PIN. */
export function newScanToken() {
	return randomBytes(18).toString('base64url')
}

export function newPin() {
	let pin = ''
	for (let i = 0; i < PIN_LENGTH; i++) pin += PIN_ALPHABET[randomInt(PIN_ALPHABET.length)]
	return pin
}

export function scanUrl(token: string) {
	return new URL(`/scan/${token}`, env.PUBLIC_URL).toString()
}

/** Creates unclaimed sticker codes. A PIN or token collision (about 1 in 10^11 per pair) is simply drawn again. */
export async function createStickerCodes(count: number) {
	if (!Number.isInteger(count) || count < 1 || count > MAX_BATCH) throw new RangeError(`count must be an integer from 1 to ${MAX_BATCH}`)
	const created: Array<{ id: number; pin: string; token: string }> = []
	while (created.length < count) {
		const wanted = count - created.length
		const rows = Array.from({ length: wanted }, () => ({ pin: newPin(), token: newScanToken(), source: 'batch' }))
		const inserted = await db
			.insert(qrCodes)
			.values(rows)
			.onConflictDoNothing()
			.returning({ id: qrCodes.id, pin: qrCodes.pin, token: qrCodes.token })
		for (const row of inserted) created.push({ id: row.id, pin: row.pin!, token: row.token })
	}
	return created.map((code) => ({ ...code, scanUrl: scanUrl(code.token) }))
}

export { MAX_BATCH }
