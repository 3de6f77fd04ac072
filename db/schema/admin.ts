import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { formerUserKey, userCompanionKey, userKey } from './accounts.ts'
import { createdAt, oneOf, timestamps } from './columns.ts'

/** The owner's own settings: two-factor sign-in, when they last looked at new orders, their checklist ticks. */
export const ownerSettings = pgTable('owner_settings', {
	userId: userCompanionKey(),
	/** Base32 TOTP secret; set at enrolment, in force once `totpEnabledAt` is set. */
	totpSecret: text(),
	totpEnabledAt: timestamp({ withTimezone: true }),
	/** The last 30-second time step a code was accepted for: a code is never accepted twice. */
	totpLastStep: bigint({ mode: 'number' }),
	/** The new-order alert lists orders placed after this. */
	ordersSeenAt: timestamp({ withTimezone: true }),
	/** Checklist items the owner ticked by hand (those the server cannot see for itself). */
	checklist: jsonb().$type<Record<string, boolean>>().default({}).notNull(),
	...timestamps(),
})

/** Single-use recovery codes for the owner's second factor, stored as hashes. */
export const ownerRecoveryCodes = pgTable(
	'owner_recovery_codes',
	{
		id: serial().primaryKey(),
		userId: userKey(),
		codeHash: text().notNull(),
		usedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [index('owner_recovery_codes_user_idx').on(t.userId)],
)

export const QR_BATCH_FORMATS = ['png', 'docx', 'pdf', 'svg'] as const
export type QrBatchFormat = (typeof QR_BATCH_FORMATS)[number]

/** A run of new unclaimed sticker codes the owner generated, kept so its file can be downloaded again. */
export const qrBatches = pgTable(
	'qr_batches',
	{
		id: serial().primaryKey(),
		createdByUserId: formerUserKey(),
		count: integer().notNull(),
		format: text().$type<QrBatchFormat>().notNull(),
		/** The label layout of a PDF batch, and the printer nudges (mm) it was made with. */
		layout: text(),
		nudgeXMm: integer().default(0).notNull(),
		nudgeYMm: integer().default(0).notNull(),
		createdAt: createdAt(),
	},
	(t) => [
		index('qr_batches_time_idx').on(t.createdAt),
		check('qr_batches_count_check', sql`${t.count} between 1 and 1000`),
		check('qr_batches_format_check', oneOf(t.format, QR_BATCH_FORMATS)),
	],
)
