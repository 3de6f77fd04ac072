import { sql, type IsPrimaryKey, type NotNull } from 'drizzle-orm'
import {
	check,
	customType,
	date,
	index,
	integer,
	text,
	timestamp,
	type AnyPgColumn,
	type PgIntegerBuilderInitial,
	type PgTextBuilderInitial,
} from 'drizzle-orm/pg-core'
import { columnSealing } from './sealing.ts'

// Column names are snake_case in SQL (casing: 'snake_case' in db/client.ts and drizzle.config.ts).
export const createdAt = () => timestamp({ withTimezone: true }).defaultNow().notNull()
export const updatedAt = () =>
	timestamp({ withTimezone: true })
		.defaultNow()
		.notNull()
		.$onUpdate(() => new Date())
export const day = () => date({ mode: 'string' })
/** When a row was made and when it last changed. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() })

/** The columns a key to another table's row is made of: its id's type. */
type KeyColumn = PgTextBuilderInitial<'', [string, ...string[]]> | PgIntegerBuilderInitial<''>

/**
 * The ways a row points at a row of another table (`target`), with a column made by `column`: it belongs to that row
 * and is deleted with it; it is that row's one companion (its primary key), deleted with it; or it is kept when that
 * row goes, and forgets which it was. Typed as drizzle types each on the column itself.
 */
export function rowKeys<Column extends KeyColumn>(column: () => Column, target: () => AnyPgColumn) {
	return {
		belongsTo: () => column().notNull().references(target, { onDelete: 'cascade' }) as NotNull<Column>,
		companionOf: () => column().primaryKey().references(target, { onDelete: 'cascade' }) as IsPrimaryKey<NotNull<Column>>,
		keptFrom: () => column().references(target, { onDelete: 'set null' }) as Column,
	}
}

/**
 * The condition of a CHECK that a column holds one of `values` (a null passes, as in every CHECK). The values are
 * written into the SQL itself: drizzle-kit stores a check as text, without parameters.
 */
export const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
	sql`${column} in (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', '))})`

/** The token of a link sent by e-mail: only its hash is kept, and the link works until it expires. */
export const linkToken = () => ({ tokenHash: text().notNull(), expiresAt: timestamp({ withTimezone: true }).notNull() })

/** A CHECK that a count or an amount in cents is zero or more. */
export const notNegative = (name: string, column: AnyPgColumn) => check(name, sql`${column} >= 0`)
/** A CHECK that a quantity, count or version is one or more. */
export const positive = (name: string, column: AnyPgColumn) => check(name, sql`${column} > 0`)

/** An index over `on` of only the rows where `present` is not null: for a column most rows leave empty. */
export const sparseIndex = (name: string, on: AnyPgColumn, present: AnyPgColumn = on) =>
	index(name)
		.on(on)
		.where(sql`${present} is not null`)

/** What the payment provider charged for the row (cents), and how much of it went back; revenue is the difference. */
export const charges = () => ({ chargedCents: integer().default(0).notNull(), refundedCents: integer().default(0).notNull() })
/** The checks of `charges()`: neither below zero, and never more refunded than was charged. */
export const chargeChecks = (table: string, t: { chargedCents: AnyPgColumn; refundedCents: AnyPgColumn }) => [
	notNegative(`${table}_charged_cents_check`, t.chargedCents),
	check(`${table}_refunded_cents_check`, sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.chargedCents}`),
]

/** Every sealed column, as `table.column` in SQL: what data:rekey re-seals (a test holds it equal to the schema). */
export const SEALED_COLUMNS = new Set<string>()

/**
 * Medical data at rest: text sealed with AES-256-GCM (app/utils/data-crypto.server.ts, registered at start through
 * db/schema/sealing.ts), bound to its column. Reads and
 * writes through Drizzle see plain text; the database, its files and its dumps hold only ciphertext. Nothing may filter
 * or sort on such a column in SQL (nothing does: lists go by id).
 */
export function sealed(table: string, column: string) {
	const place = `${table}.${column}`
	SEALED_COLUMNS.add(place)
	return customType<{ data: string; driverData: string }>({
		dataType: () => 'text',
		// The crypto is looked up on each value, not at import: the app registers it as it starts (db/schema/sealing.ts).
		toDriver: (value) => columnSealing().sealText(value, place),
		fromDriver: (value) => columnSealing().openText(value, place),
	})()
}
