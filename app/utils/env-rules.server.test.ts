import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { configProblems, configSummary, EnvSchema, type EnvRecord } from './env-rules.server.ts'

const KEYS = 'k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='
const PG = 'postgres://app:pw@db.internal:5432/hmh'
/** A PostgreSQL configuration that may start: the secrets set and an https address. */
const production: EnvRecord = {
	DATABASE_URL: PG,
	SESSION_SECRET: 's3cret-session',
	DATA_ENCRYPTION_KEYS: KEYS,
	PUBLIC_URL: 'https://hmh.example',
}

/** The setting each problem names (what comes before the first colon). */
const named = (env: EnvRecord) => configProblems(env).map((problem) => problem.slice(0, problem.indexOf(':')))

describe('configProblems', () => {
	test.each<[string, EnvRecord, string[]]>([
		['the embedded database with no settings at all', {}, []],
		['the embedded database on http with generated secrets and half a Stripe (as always)', { STRIPE_SECRET_KEY: 'sk' }, []],
		['PostgreSQL with the secrets and https', production, []],
		['PostgreSQL and nothing else: every missing one', { DATABASE_URL: PG }, ['SESSION_SECRET', 'DATA_ENCRYPTION_KEYS', 'PUBLIC_URL']],
		['a blank secret is a missing one', { ...production, SESSION_SECRET: '  ' }, ['SESSION_SECRET']],
		[
			'one instance keeps the secrets generated in DATA_DIR',
			{ DATABASE_URL: PG, PUBLIC_URL: 'https://hmh.example', SINGLE_INSTANCE: 'true' },
			[],
		],
		['PUBLIC_URL on http', { ...production, PUBLIC_URL: 'http://hmh.example' }, ['PUBLIC_URL']],
		[
			'http allowed by name, for tests on loopback',
			{ ...production, PUBLIC_URL: 'http://localhost:3000', ALLOW_INSECURE_PUBLIC_URL: 'true' },
			[],
		],
		['Stripe without its webhook secret', { ...production, STRIPE_SECRET_KEY: 'sk' }, ['STRIPE_WEBHOOK_SECRET']],
		[
			'Stripe without its secret key',
			{ ...production, STRIPE_WEBHOOK_SECRET: 'wh', STRIPE_PUBLISHABLE_KEY: 'pk' },
			['STRIPE_SECRET_KEY', 'STRIPE_SECRET_KEY'],
		],
		[
			'Stripe with the two keys it needs, no publishable key (hosted pages)',
			{ ...production, STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' },
			[],
		],
		['an S3 bucket alone (credentials from the instance role)', { ...production, S3_BUCKET: 'b' }, []],
		['an S3 bucket with both keys', { ...production, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's' }, []],
		['an S3 key without its secret', { ...production, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'a' }, ['S3_SECRET_ACCESS_KEY']],
		['S3 keys without a bucket', { ...production, S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's' }, ['S3_BUCKET', 'S3_BUCKET']],
		['OIDC half set, on either database', { OIDC_ISSUER: 'https://id.example' }, ['OIDC_CLIENT_ID, OIDC_CLIENT_SECRET']],
		['a pool of one (the start-up lock needs a connection of its own)', { ...production, DATABASE_POOL_MAX: '1' }, ['DATABASE_POOL_MAX']],
		['settings set to nothing take their defaults', { ...production, MIGRATE_ON_START: '', DATABASE_POOL_MAX: ' ', SEED_DEMO: '' }, []],
		[
			'flags that are neither on nor off',
			{ ...production, MIGRATE_ON_START: 'no', DATABASE_PREPARE: 'off' },
			['MIGRATE_ON_START', 'DATABASE_PREPARE'],
		],
		[
			'everything wrong at once is listed at once',
			{
				DATABASE_URL: PG,
				PUBLIC_URL: 'http://x.example',
				SMTP_URL: 'http://mail',
				STRIPE_SECRET_KEY: 'sk',
				S3_ACCESS_KEY_ID: 'a',
				OIDC_CLIENT_ID: 'c',
			},
			[
				'SMTP_URL',
				'OIDC_ISSUER, OIDC_CLIENT_SECRET',
				'SESSION_SECRET',
				'DATA_ENCRYPTION_KEYS',
				'PUBLIC_URL',
				'STRIPE_WEBHOOK_SECRET',
				'S3_SECRET_ACCESS_KEY',
				'S3_BUCKET',
			],
		],
	])('%s', (_, env, expected) => {
		expect(named(env)).toEqual(expected)
	})

	test('a problem names the setting, never its value', () => {
		const problems = configProblems({
			...production,
			SESSION_SECRET: '',
			STRIPE_SECRET_KEY: 'sk_live_very_secret',
			S3_ACCESS_KEY_ID: 'AKIA_SECRETISH',
		})
		expect(problems.length).toBeGreaterThan(0)
		expect(problems.join('\n')).not.toMatch(/sk_live_very_secret|AKIA_SECRETISH|pw@/)
	})
})

test('configSummary says what is on, with hosts and no secret', () => {
	const lines = configSummary(
		EnvSchema.parse({
			...production,
			S3_BUCKET: 'uploads',
			SMTP_URL: 'smtp://user:mailpw@mail.example:587',
			STRIPE_SECRET_KEY: 'sk_live_x',
			STRIPE_WEBHOOK_SECRET: 'whsec_x',
		}),
	).join('\n')
	expect(lines).toContain('PostgreSQL at db.internal:5432')
	expect(lines).toContain('S3 bucket uploads')
	expect(lines).toContain('SMTP at mail.example:587')
	expect(lines).toContain('payments: Stripe')
	expect(lines).not.toMatch(/pw|s3cret|sk_live|whsec|AAECAw/)
})

test('npm run config:check on PostgreSQL without secrets lists each missing one and exits 1; a good one exits 0', async () => {
	const run = (env: EnvRecord) =>
		promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/config-check.ts'], {
			env: { PATH: process.env.PATH, ...env },
		}).then(
			(done) => ({ code: 0, ...done }),
			(failed: { code: number; stdout: string; stderr: string }) => failed,
		)
	const refused = await run({ DATABASE_URL: 'postgres://x@127.0.0.1:1/x' })
	expect(refused.code).toBe(1)
	const lines = refused.stderr.trim().split('\n').slice(1)
	expect(lines.map((line) => line.trim().split(':')[0])).toEqual(['SESSION_SECRET', 'DATA_ENCRYPTION_KEYS', 'PUBLIC_URL'])

	const accepted = await run(production)
	expect(accepted.code).toBe(0)
	expect(accepted.stdout).toMatch(/^configuration OK\n/)
	expect(accepted.stdout).not.toMatch(/s3cret-session|pw@/)
}, 30_000)
