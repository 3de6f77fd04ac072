import { date, timestamp } from 'drizzle-orm/pg-core'

// Column names are snake_case in SQL (casing: 'snake_case' in db/client.ts and drizzle.config.ts).
export const createdAt = () => timestamp({ withTimezone: true }).defaultNow().notNull()
export const updatedAt = () =>
	timestamp({ withTimezone: true })
		.defaultNow()
		.notNull()
		.$onUpdate(() => new Date())
export const day = () => date({ mode: 'string' })
