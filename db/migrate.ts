import { fileURLToPath } from 'node:url'
import { migrate as migratePg } from 'drizzle-orm/postgres-js/migrator'
import type { Database } from './client.ts'

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/** Both drivers share the migrator; PGlite's session is wire-compatible with the postgres-js one. */
export async function migrate(db: Database) {
	await migratePg(db, { migrationsFolder })
}
