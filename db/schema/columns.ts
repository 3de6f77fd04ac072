import { sql } from 'drizzle-orm'
import { date, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core'

// Column names are snake_case in SQL (casing: 'snake_case' in db/client.ts and drizzle.config.ts).
export const createdAt = () => timestamp({ withTimezone: true }).defaultNow().notNull()
export const updatedAt = () =>
	timestamp({ withTimezone: true })
		.defaultNow()
		.notNull()
		.$onUpdate(() => new Date())
export const day = () => date({ mode: 'string' })

/**
 * The condition of a CHECK that a column holds one of `values` (a null passes, as in every CHECK). The values are
 * written into the SQL itself: drizzle-kit stores a check as text, without parameters.
 */
export const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
	sql`${column} in (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', '))})`
