import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users } from './accounts.ts'
import { createdAt, updatedAt } from './columns.ts'
import { qrCodes } from './qr.ts'

export const products = pgTable('products', {
	id: integer().primaryKey(),
	name: text().notNull(),
	description: text().notNull(),
	category: text().notNull(),
	priceCents: integer().notNull(),
	engraved: boolean().default(false).notNull(),
	supportsTransparent: boolean().default(false).notNull(),
	supportsSticker: boolean().default(false).notNull(),
	/** Size choices (request page stickers), e.g. [{ id: 'small', label: 'Small (2x2 in)' }]. */
	sizes: jsonb().$type<Array<{ id: string; label: string }>>().default([]).notNull(),
	inShop: boolean().default(false).notNull(),
	onRequestPage: boolean().default(false).notNull(),
	sortOrder: integer().default(0).notNull(),
	active: boolean().default(true).notNull(),
})

export type CartItem = {
	productId: number
	quantity: number
	color: string
	addSticker: boolean
	transparentBackground: boolean
	qrShape: 'circular' | 'square'
	customText?: string
	stickerSize?: string
	qrCodeUrl?: string
}

/** Signed-in users' carts; a guest's cart lives in their session. */
export const carts = pgTable('carts', {
	userId: text()
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	items: jsonb().$type<CartItem[]>().default([]).notNull(),
	updatedAt: updatedAt(),
})

export const discounts = pgTable(
	'discounts',
	{
		id: serial().primaryKey(),
		code: text().notNull(),
		type: text().$type<'percentage' | 'fixed'>().notNull(),
		/** Percent for 'percentage', cents for 'fixed'. */
		value: integer().notNull(),
		description: text().notNull(),
		marksFreeOrder: boolean().default(false).notNull(),
		active: boolean().default(true).notNull(),
		expiresAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('discounts_code_unique').on(sql`upper(${t.code})`)],
)

export type ShippingAddress = {
	name: string
	address1: string
	address2?: string
	city: string
	state?: string
	postalCode: string
	country: string
}

export const orders = pgTable(
	'orders',
	{
		id: text().primaryKey(),
		confirmationNumber: text().notNull(),
		/** Kept when the account is deleted, for the foundation's records. */
		userId: text().references(() => users.id, { onDelete: 'set null' }),
		customerName: text(),
		customerEmail: text().notNull(),
		subtotalCents: integer().notNull(),
		discountCode: text(),
		discountCents: integer().default(0).notNull(),
		shippingCents: integer().default(0).notNull(),
		totalCents: integer().notNull(),
		currency: text().default('usd').notNull(),
		shippingMethod: text(),
		shippingCountry: text(),
		shippingAddress: jsonb().$type<ShippingAddress>(),
		selectedQrCodeId: integer().references(() => qrCodes.id, { onDelete: 'set null' }),
		qrShape: text(),
		orderType: text().default('shop').notNull(),
		isFree: boolean().default(true).notNull(),
		fulfillmentStatus: text().default('pending').notNull(),
		paymentStatus: text().default('completed').notNull(),
		paymentSessionId: text(),
		/** The same checkout submitted twice yields one order. */
		idempotencyKey: text(),
		fulfilledAt: timestamp({ withTimezone: true }),
		shippedAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('orders_confirmation_unique').on(t.confirmationNumber),
		uniqueIndex('orders_idempotency_unique').on(t.idempotencyKey),
		index('orders_user_idx').on(t.userId),
		index('orders_created_idx').on(t.createdAt),
		index('orders_status_idx').on(t.fulfillmentStatus),
	],
)

export const orderItems = pgTable(
	'order_items',
	{
		id: serial().primaryKey(),
		orderId: text()
			.notNull()
			.references(() => orders.id, { onDelete: 'cascade' }),
		productId: integer().references(() => products.id, { onDelete: 'set null' }),
		name: text().notNull(),
		quantity: integer().notNull(),
		unitPriceCents: integer().notNull(),
		color: text(),
		addSticker: boolean().default(false).notNull(),
		transparentBackground: boolean().default(false).notNull(),
		qrShape: text(),
		customText: text(),
		stickerSize: text(),
		qrCodeUrl: text(),
	},
	(t) => [index('order_items_order_idx').on(t.orderId)],
)

/** QR codes the owner assigned to an order during fulfilment. */
export const orderAssignedCodes = pgTable(
	'order_assigned_codes',
	{
		orderId: text()
			.notNull()
			.references(() => orders.id, { onDelete: 'cascade' }),
		qrCodeId: integer()
			.notNull()
			.references(() => qrCodes.id, { onDelete: 'cascade' }),
		assignedAt: createdAt(),
	},
	(t) => [primaryKey({ columns: [t.orderId, t.qrCodeId] })],
)

export type Order = typeof orders.$inferSelect
