import { randomBytes } from 'node:crypto'

/**
 * Test databases on the PostgreSQL that DATABASE_URL points at (CI); PGlite in memory otherwise. Each vitest run has
 * databases of its own, `hmh_test_<run>_template` and `hmh_test_<run>_1..N`, so two runs against one server never drop
 * each other's: global-setup.ts picks the run's name and hands it to the workers in TEST_RUN_ENV.
 */
export const WORKER_DBS = 4
export const TEST_RUN_ENV = 'HMH_TEST_RUN'

/** `hmh_test_<seconds since 1970, base 36>_<6 random hex>`: a lower-case identifier, 22 characters until 2059. */
const RUN_NAME = /^hmh_test_([0-9a-z]{1,8})_[0-9a-f]{6}$/
const RUN_DATABASE = /^(hmh_test_[0-9a-z]{1,8}_[0-9a-f]{6})_(template|\d{1,3})$/

export function newRunName(now = Date.now()) {
	return `hmh_test_${Math.floor(now / 1000).toString(36)}_${randomBytes(3).toString('hex')}`
}

/** The run's name as global setup left it for the workers; it also ends up in SQL, so anything else is refused. */
export function currentRunName(env: NodeJS.ProcessEnv = process.env) {
	const run = env[TEST_RUN_ENV]
	if (!run || !RUN_NAME.test(run))
		throw new Error(`${TEST_RUN_ENV} is not set: run vitest with vitest.config.ts, whose global setup creates the test databases.`)
	return run
}

export const templateDatabase = (run: string) => `${run}_template`
export const workerDatabase = (run: string, poolId: string | number) => `${run}_${poolId}`

/** When a run's database was created (from its name), or null for a name that is no run's database. */
export function runDatabaseStartedAt(name: string) {
	const run = RUN_DATABASE.exec(name)?.[1]
	return run ? new Date(parseInt(RUN_NAME.exec(run)![1]!, 36) * 1000) : null
}

export function databaseUrl(base: string, name: string) {
	const url = new URL(base)
	url.pathname = `/${name}`
	return url.toString()
}
