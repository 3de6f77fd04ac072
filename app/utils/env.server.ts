import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { parseCidr } from './client-address.ts'
import { parseDataKeys, type DataKey } from './data-crypto.server.ts'

const optional = z
	.string()
	.trim()
	.optional()
	.transform((v) => (v ? v : undefined))

const EnvSchema = z.object({
	NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
	PORT: z.coerce.number().int().positive().default(3000),
	HOST: optional,
	PUBLIC_URL: z.url().default('http://localhost:3000'),
	DATA_DIR: z.string().default('.data'),
	DATABASE_URL: optional,
	SESSION_SECRET: optional,
	DATA_ENCRYPTION_KEYS: optional.transform((v, ctx) => {
		if (!v) return undefined
		try {
			return parseDataKeys(v)
		} catch (error) {
			ctx.addIssue({ code: 'custom', message: (error as Error).message })
			return z.NEVER
		}
	}),
	OWNER_EMAIL: optional.transform((v) => v?.toLowerCase()),
	ADMIN_TOKEN: optional,
	OIDC_ISSUER: optional,
	OIDC_CLIENT_ID: optional,
	OIDC_CLIENT_SECRET: optional,
	OIDC_SCOPES: z.string().default('openid email profile'),
	OIDC_PROVIDER_NAME: z.string().default('oidc'),
	TRUSTED_PROXIES: optional.transform((v, ctx) => {
		const list = (v ?? '')
			.split(',')
			.map((entry) => entry.trim())
			.filter(Boolean)
		const bad = list.find((entry) => !parseCidr(entry))
		if (bad) ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${bad}` })
		return list
	}),
	/** Client addresses beginning with one of these (comma-separated) are not real users in analytics; '' for none. */
	ANALYTICS_EXCLUDE_PREFIXES: z
		.string()
		.default('10.83.')
		.transform((v) =>
			v
				.split(',')
				.map((prefix) => prefix.trim())
				.filter(Boolean),
		),
	RATE_LIMIT_STRICT_PER_MINUTE: z.coerce.number().int().positive().default(10),
	RATE_LIMIT_LOOSE_PER_MINUTE: z.coerce.number().int().positive().default(120),
	RATE_LIMIT_HEAVY_PER_MINUTE: z.coerce.number().int().positive().default(10),
	S3_BUCKET: optional,
	S3_REGION: optional.transform((v) => v ?? 'us-east-1'),
	S3_ENDPOINT: optional,
	S3_ACCESS_KEY_ID: optional,
	S3_SECRET_ACCESS_KEY: optional,
	S3_FORCE_PATH_STYLE: z
		.enum(['true', 'false', '1', '0'])
		.default('false')
		.transform((v) => v === 'true' || v === '1'),
	/** Where `npm run backup` keeps backups (scripts/backup-kit.ts); the app only looks at the newest one's age. */
	BACKUP_DIR: optional,
	BACKUP_S3_BUCKET: optional,
	BACKUP_S3_PREFIX: optional,
	SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/, hostname: /./, error: 'must be an smtp:// or smtps:// URL' }).optional()),
	MAIL_FROM: z.string().default('Hit Me Helpers <no-reply@hitmehelpers.org>'),
	SUPPORT_EMAIL: optional.pipe(z.email().optional()).transform((v) => v ?? 'support@hitmehelpers.org'),
	ADDRESS_SEARCH_URL: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
	SENTRY_DSN: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be a Sentry DSN (https://key@host/project)' }).optional()),
	STRIPE_SECRET_KEY: optional,
	STRIPE_PUBLISHABLE_KEY: optional,
	STRIPE_WEBHOOK_SECRET: optional,
	STRIPE_API_BASE: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
	FOUNDATION_LEGAL_NAME: z.string().trim().min(1).default('Hit Me Helpers Foundation'),
	FOUNDATION_TAX_ID: optional,
	/** After SIGTERM, /readyz fails at once and the drain begins this many ms later (0: at once). */
	SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(5000),
	/** Prometheus metrics (/metrics) on a listener of their own, never the public port; 0 turns them off. */
	METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
	METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
	SEED_DEMO: z
		.enum(['true', 'false', '1', '0'])
		.default('false')
		.transform((v) => v === 'true' || v === '1'),
})

export type Env = z.infer<typeof EnvSchema> & { sessionSecrets: string[]; dataKeys: DataKey[]; oidcEnabled: boolean }

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

const g = globalThis as { __env?: Env }
export const env: Env = (g.__env ??= readEnv())
export const isProduction = env.NODE_ENV === 'production'
