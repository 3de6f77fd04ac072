import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type DataKey } from './data-crypto.server.ts'
import { EnvSchema, type ParsedEnv } from './env-rules.server.ts'

export type Env = ParsedEnv & { sessionSecrets: string[]; dataKeys: DataKey[]; oidcEnabled: boolean }

function readEnv(): Env {
	const parsed = EnvSchema.safeParse(process.env)
	if (!parsed.success) {
		const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')
		throw new Error(`Invalid environment:\n${problems}`)
	}
	const env = parsed.data
	const oidcValues = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET]
	const oidcEnabled = oidcValues.every(Boolean)
	if (!oidcEnabled && oidcValues.some(Boolean))
		throw new Error('Invalid environment: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together')
	return {
		...env,
		oidcEnabled,
		sessionSecrets: sessionSecrets(env.SESSION_SECRET, env.DATA_DIR),
		dataKeys: env.DATA_ENCRYPTION_KEYS ?? [
			{ id: GENERATED_DATA_KEY_ID, key: Buffer.from(keptSecret(env.DATA_DIR, 'data-encryption-key'), 'base64url') },
		],
	}
}

/** The id of the key generated into DATA_DIR when DATA_ENCRYPTION_KEYS is not set. */
export const GENERATED_DATA_KEY_ID = 'local'

/** Comma-separated to allow rotation; without one, a random secret is kept under the data directory. */
function sessionSecrets(configured: string | undefined, dataDir: string) {
	if (configured)
		return configured
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean)
	return [keptSecret(dataDir, 'session-secret')]
}

/**
 * 32 random bytes (base64url) kept in a file under the data directory, made on first use. Written aside and linked
 * into place, so processes starting together agree on one and none reads half a file.
 */
function keptSecret(dataDir: string, name: string) {
	const file = join(dataDir, name)
	try {
		return readFileSync(file, 'utf8').trim()
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
	}
	mkdirSync(dataDir, { recursive: true })
	const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
	writeFileSync(temp, randomBytes(32).toString('base64url'), { mode: 0o600 })
	try {
		linkSync(temp, file)
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
	} finally {
		rmSync(temp, { force: true })
	}
	return readFileSync(file, 'utf8').trim()
}

export const env: Env = readEnv()
export const isProduction = env.NODE_ENV === 'production'
