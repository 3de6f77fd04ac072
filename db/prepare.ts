import type { Database } from './client.ts'
import { migrate } from './migrate.ts'
import { isEmpty, seed } from './seed.ts'

/** At start: apply committed migrations, and seed a database that has never been seeded. */
export async function prepareDatabase(db: Database, options: { demo?: boolean } = {}) {
	await migrate(db)
	if (await isEmpty(db)) await seed(db, options)
	else if (options.demo) await seed(db, options)
}
