import { desc, eq, getTableColumns, type Table } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { db } from './client.ts'

type PersonsRows = PgTable & { id: PgColumn; userId: PgColumn; createdAt: PgColumn }

/** A person's newest `count` rows of a table, newest first (ties by id): a subquery, to keep these and drop the rest. */
export function newestIds(table: PersonsRows, userId: string, count: number) {
	return db.select({ id: table.id }).from(table).where(eq(table.userId, userId)).orderBy(desc(table.createdAt), desc(table.id)).limit(count)
}

/** Some of a table's columns by name, to select just those: `db.select(columnsOf(orders, 'id', 'total'))`. */
export function columnsOf<T extends Table, K extends keyof T['_']['columns'] & string>(table: T, ...names: K[]) {
	const all = getTableColumns(table)
	return Object.fromEntries(names.map((name) => [name, all[name]])) as Pick<T['_']['columns'], K>
}
