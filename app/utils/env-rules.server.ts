import { z } from 'zod'
import { parseCidr } from './client-address.ts'
import { parseDataKeys } from './data-crypto.server.ts'

/*
 * What the environment may hold, and the verdict on it. Nothing here reads process.env, writes a file or connects
 * anywhere: env.server.ts parses the running process's settings with EnvSchema, and server.ts and `npm run config:check`
 * ask configProblems() whether a configuration may start.
 */

const optional = z
	.string()
	.trim()
	.optional()
	.transform((v) => (v ? v : undefined))

/** A setting set to nothing is one not set. */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && !value.trim() ? undefined : value)

/** 'true' or '1' on, 'false' or '0' off. */
const flag = (fallback: 'true' | 'false') =>
	z.preprocess(
		blankIsUnset,
		z
			.enum(['true', 'false', '1', '0'], { error: 'must be true, false, 1 or 0' })
			.default(fallback)
			.transform((v) => v === 'true' || v === '1'),
	)

export const EnvSchema = z.object({
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
	S3_FORCE_PATH_STYLE: flag('false'),
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
	SEED_DEMO: flag('false'),
	MIGRATE_ON_START: flag('true'),
	/** At least 2: at start one connection holds the migration lock while another migrates (db/prepare.ts). */
	DATABASE_POOL_MAX: z.preprocess(blankIsUnset, z.coerce.number().int().min(2, 'must be at least 2').default(10)),
	DATABASE_PREPARE: flag('true'),
	SINGLE_INSTANCE: flag('false'),
	ALLOW_INSECURE_PUBLIC_URL: flag('false'),
	/** After SIGTERM, /readyz fails at once and the drain begins this many ms later (0: at once). */
	SHUTDOWN_DELAY_MS: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).default(5000)),
	/** Prometheus metrics (/metrics) on a listener of their own, never the public port; 0 turns them off. */
	METRICS_PORT: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(65535).default(9464)),
	METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
	/** Renderers under SCHED_IDLE (chrt): only on a core nothing else wants. Off on a machine shared with busy programs. */
	RENDERER_IDLE_PRIORITY: flag('true'),
})

export type EnvRecord = Record<string, string | undefined>
export type ParsedEnv = z.infer<typeof EnvSchema>

const present = (env: EnvRecord, name: string) => Boolean(env[name]?.trim())

/** A group of settings that works only whole, half set: what is missing. */
function together(env: EnvRecord, names: string[], what: string) {
	const set = names.filter((name) => present(env, name))
	return set.length && set.length < names.length
		? [`${names.filter((name) => !set.includes(name)).join(', ')}: missing; ${what} needs ${names.join(', ')} together`]
		: []
}

/** A setting that means nothing without another one. */
function requires(env: EnvRecord, name: string, needed: string, why: string) {
	return present(env, name) && !present(env, needed) ? [`${needed}: missing; ${name} is set, ${why}`] : []
}

/** Stripe and S3 half set: refused on PostgreSQL (the embedded database has always let them pass). */
function halfSetServices(env: EnvRecord) {
	return [
		// Giving works with the secret key and the webhook's secret; the publishable key only adds the in-page flow.
		...together(env, ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'], 'online giving'),
		...requires(env, 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_SECRET_KEY', 'but the in-page flow needs the rest of Stripe'),
		// Without keys the S3 client takes the AWS default chain (an instance's or task's role, AWS_* variables): a
		// bucket alone is a setup, one key of the pair is a mistake, and keys or an endpoint without a bucket do nothing.
		...together(env, ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], 'S3 with keys'),
		...['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_ENDPOINT'].flatMap((name) =>
			requires(env, name, 'S3_BUCKET', 'but uploads go to S3 only with a bucket'),
		),
	]
}

/**
 * Every reason this configuration may not start, one line each (none: it may). Any database: each setting's own form,
 * and the identity provider's three settings together. On PostgreSQL (DATABASE_URL), which several instances may
 * share, also: the secrets set rather than generated per disk (unless SINGLE_INSTANCE), an https PUBLIC_URL (unless
 * ALLOW_INSECURE_PUBLIC_URL), and Stripe and S3 whole or not at all. The embedded database needs no setting.
 */
export function configProblems(env: EnvRecord): string[] {
	const parsed = EnvSchema.safeParse(env)
	const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
	problems.push(...together(env, ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'], 'signing in through an identity provider'))
	if (!present(env, 'DATABASE_URL')) return problems
	// Read as they are, so that these are reported beside a setting whose form is wrong.
	const on = (name: string) => ['true', '1'].includes(env[name]?.trim() ?? '')
	if (!on('SINGLE_INSTANCE')) {
		const why = 'on PostgreSQL every instance needs the same one (SINGLE_INSTANCE=true keeps the one generated in DATA_DIR)'
		if (!present(env, 'SESSION_SECRET')) problems.push(`SESSION_SECRET: missing; ${why}`)
		if (!present(env, 'DATA_ENCRYPTION_KEYS')) problems.push(`DATA_ENCRYPTION_KEYS: missing; ${why}`)
	}
	const publicUrl = URL.parse(env.PUBLIC_URL?.trim() || 'http://localhost:3000')
	if (publicUrl && publicUrl.protocol !== 'https:' && !on('ALLOW_INSECURE_PUBLIC_URL'))
		problems.push(
			`PUBLIC_URL: ${present(env, 'PUBLIC_URL') ? 'not https' : 'missing'}; on PostgreSQL it must be the site's https:// address (ALLOW_INSECURE_PUBLIC_URL=true for a test on http)`,
		)
	return [...problems, ...halfSetServices(env)]
}

/** What a configuration switches on, for `npm run config:check`: names, hosts and counts, never a secret's value. */
export function configSummary(env: ParsedEnv): string[] {
	const host = (url: string) => URL.parse(url)?.host || 'an address that is no URL'
	const on = (value: unknown, text: string) => (value ? text : 'off')
	return [
		`database: ${env.DATABASE_URL ? `PostgreSQL at ${host(env.DATABASE_URL)} (pool ${env.DATABASE_POOL_MAX}, prepared statements ${env.DATABASE_PREPARE ? 'on' : 'off'})` : `embedded (PGlite) in ${env.DATA_DIR}`}`,
		`migrations at start: ${env.MIGRATE_ON_START ? 'on' : 'off (npm run db:migrate)'}`,
		`public address: ${env.PUBLIC_URL}`,
		`secrets: ${env.SESSION_SECRET ? 'session secret set' : `session secret kept in ${env.DATA_DIR}`}, ${env.DATA_ENCRYPTION_KEYS ? `${env.DATA_ENCRYPTION_KEYS.length} data key(s) set` : `data key kept in ${env.DATA_DIR}`}`,
		`uploads: ${env.S3_BUCKET ? `S3 bucket ${env.S3_BUCKET}${env.S3_ENDPOINT ? ` at ${host(env.S3_ENDPOINT)}` : ''}${env.S3_ACCESS_KEY_ID ? '' : ' (credentials from the AWS default chain)'}` : `local folder in ${env.DATA_DIR}`}`,
		`e-mail: ${env.SMTP_URL ? `SMTP at ${host(env.SMTP_URL)}` : 'outbox only (no SMTP_URL)'}`,
		`sign-in: ${env.OIDC_ISSUER ? `OIDC provider ${host(env.OIDC_ISSUER)}` : 'local accounts'}`,
		`payments: ${env.STRIPE_SECRET_KEY ? `Stripe${env.STRIPE_PUBLISHABLE_KEY ? ' (in-page flow on)' : ' (hosted pages)'}` : 'off'}`,
		`address search: ${env.ADDRESS_SEARCH_URL ? host(env.ADDRESS_SEARCH_URL) : 'off'}`,
		`owner: ${on(env.OWNER_EMAIL, 'OWNER_EMAIL set')}; admin token: ${on(env.ADMIN_TOKEN, 'set')}`,
	]
}
