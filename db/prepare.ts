import type { Database } from './client.ts'
import { prepareJobQueues } from './job-queues.ts'
import { migrate } from './migrate.ts'
import { isEmpty, seed } from './seed.ts'

/** At start: apply committed migrations and the job queues' tables, and seed a database that has never been seeded. */
export async function prepareDatabase(db: Database, options: { demo?: boolean } = {}) {
	await migrate(db)
	await prepareJobQueues(db)
	if (await isEmpty(db)) await seed(db, options)
	else if (options.demo) await seed(db, options)
}
