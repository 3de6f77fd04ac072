/** Test databases on the PostgreSQL that DATABASE_URL points at (CI); PGlite in memory otherwise. */
export const TEMPLATE_DB = 'hmh_test_template'
export const WORKER_DBS = 4

export function databaseUrl(base: string, name: string) {
	const url = new URL(base)
	url.pathname = `/${name}`
	return url.toString()
}
