import { sql } from 'drizzle-orm'
import { bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './accounts.ts'
import { emails } from './mail.ts'

export const visits = pgTable(
	'visits',
	{
		id: bigserial({ mode: 'number' }).primaryKey(),
		path: text().notNull(),
		visitorId: text(),
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		ipAddress: text(),
		userAgent: text(),
		browser: text(),
		deviceType: text(),
		isBot: boolean().default(false).notNull(),
		isOwner: boolean().default(false).notNull(),
		referrer: text(),
		emailId: integer().references(() => emails.id, { onDelete: 'set null' }),
		visitedAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
	},
	(t) => [
		index('visits_time_idx').on(t.visitedAt),
		index('visits_email_idx').on(t.emailId),
		// Most visits are anonymous: only signed-in ones are indexed (for account deletion and the foreign key).
		index('visits_user_idx')
			.on(t.userId)
			.where(sql`${t.userId} is not null`),
	],
)
