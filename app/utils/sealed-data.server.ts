import { registerColumnSealing } from '#db/schema/sealing.ts'
import { createDataCrypto } from './data-crypto.server.ts'
import { env } from './env.server.ts'

/** The app's medical data crypto, under DATA_ENCRYPTION_KEYS (or the key generated into DATA_DIR). */
export const sealedData = createDataCrypto(env.dataKeys)

/**
 * Hands the sealed columns of the schema (db/schema/columns.ts) this crypto. Whatever starts the app calls it once,
 * before any sealed column is read or written: the server build, each script, the test setup.
 */
export function sealColumns() {
	registerColumnSealing(sealedData)
}
