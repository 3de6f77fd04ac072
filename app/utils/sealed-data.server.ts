import { createDataCrypto } from './data-crypto.server.ts'
import { env } from './env.server.ts'

/** The app's medical data crypto, under DATA_ENCRYPTION_KEYS (or the key generated into DATA_DIR). */
export const sealedData = createDataCrypto(env.dataKeys)
