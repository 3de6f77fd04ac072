import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { migrate as migratePg } from 'drizzle-orm/postgres-js/migrator'
import { rowsOf, type Database } from './client.ts'

/**
 * Beside this file when run from the source (scripts, tests); from the server build (build/server/index.js, which
 * bundles this module), the checkout's db/migrations.
 */
export const migrationsFolder = [`./migrations`, `../../db/migrations`]
	.map((place) => fileURLToPath(new URL(place, import.meta.url)))
	.find((folder) => existsSync(`${folder}/meta/_journal.json`))!

/** Both drivers share the migrator; PGlite's session is wire-compatible with the postgres-js one. */
export async function migrate(db: Database) {
	await migratePg(db, { migrationsFolder })
}

/**
 * How many committed migrations the database has not had, by the migrator's own rule: every migration newer than the
 * newest one recorded in drizzle.__drizzle_migrations. A database never migrated has them all to come.
 */
export async function pendingMigrations(db: Database) {
	const migrations = readMigrationFiles({ migrationsFolder })
	const [table] = rowsOf<{ found: string | null }>(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`))
	if (!table?.found) return migrations.length
	const [last] = rowsOf<{ created_at: string | number | null }>(
		await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`),
	)
	return migrations.filter((migration) => !last || Number(last.created_at) < migration.folderMillis).length
}
