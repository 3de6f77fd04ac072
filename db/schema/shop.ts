import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { formerUserKey, userCompanionKey } from './accounts.ts'
import { chargeChecks, charges, createdAt, notNegative, oneOf, positive, timestamps, updatedAt } from './columns.ts'
import { formerQrCodeKey, qrCodeKey } from './qr.ts'
import { SHIPPING_METHODS } from './values.ts'

export const products = pgTable(
	'products',
	{
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
	},
	(t) => [notNegative('products_price_cents_check', t.priceCents)],
)

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
	userId: userCompanionKey(),
	items: jsonb().$type<CartItem[]>().default([]).notNull(),
	updatedAt: updatedAt(),
})

export const DISCOUNT_TYPES = ['percentage', 'fixed'] as const

export const discounts = pgTable(
	'discounts',
	{
		id: serial().primaryKey(),
		code: text().notNull(),
		type: text().$type<(typeof DISCOUNT_TYPES)[number]>().notNull(),
		/** Percent for 'percentage', cents for 'fixed'. */
		value: integer().notNull(),
		description: text().notNull(),
		marksFreeOrder: boolean().default(false).notNull(),
		active: boolean().default(true).notNull(),
		expiresAt: timestamp({ withTimezone: true }),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('discounts_code_unique').on(sql`upper(${t.code})`),
		check('discounts_type_check', oneOf(t.type, DISCOUNT_TYPES)),
		check('discounts_value_check', sql`${t.value} >= 0 and (${t.type} <> 'percentage' or ${t.value} <= 100)`),
	],
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

/**
 * Fulfilment (spec 002): pending (awaiting QR assignment) → processing (codes assigned) → fulfilled (shipping document
 * made) → shipped → delivered; cancelled when it can no longer be delivered (its account was deleted before it shipped).
 */
export const FULFILLMENT_STATUSES = ['pending', 'processing', 'fulfilled', 'shipped', 'delivered', 'cancelled'] as const
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number]

/**
 * Spec 002: completed or other. A free order (every shop order today) is 'free': nothing was charged. A paid one is
 * pending until the payment provider's verified webhook completes or fails it, and may be refunded later.
 */
export const ORDER_PAYMENT_STATUSES = ['free', 'pending', 'completed', 'failed', 'refunded'] as const

/** Every order is a shop order today (spec 002); free QR code requests are qr_requests. */
export const ORDER_TYPES = ['shop'] as const

export const orders = pgTable(
	'orders',
	{
		id: text().primaryKey(),
		confirmationNumber: text().notNull(),
		/** Kept when the account is deleted, for the foundation's records. */
		userId: formerUserKey(),
		customerName: text(),
		customerEmail: text().notNull(),
		subtotalCents: integer().notNull(),
		discountCode: text(),
		discountCents: integer().default(0).notNull(),
		shippingCents: integer().default(0).notNull(),
		/** Subtotal, discount, shipping and total are list prices by the spec's rules; what was paid is recorded apart. */
		totalCents: integer().notNull(),
		/** What the payment provider charged (0 for a free order), and what went back. */
		...charges(),
		currency: text().default('usd').notNull(),
		shippingMethod: text(),
		shippingCountry: text(),
		shippingAddress: jsonb().$type<ShippingAddress>(),
		selectedQrCodeId: formerQrCodeKey(),
		qrShape: text(),
		orderType: text().default('shop').notNull(),
		isFree: boolean().default(true).notNull(),
		fulfillmentStatus: text().$type<FulfillmentStatus>().default('pending').notNull(),
		paymentStatus: text().$type<(typeof ORDER_PAYMENT_STATUSES)[number]>().default('free').notNull(),
		paymentSessionId: text(),
		/** The client's key for one checkout, unique per person: the same checkout submitted twice yields one order. */
		idempotencyKey: text(),
		fulfilledAt: timestamp({ withTimezone: true }),
		shippedAt: timestamp({ withTimezone: true }),
		...timestamps(),
	},
	(t) => [
		uniqueIndex('orders_confirmation_unique').on(t.confirmationNumber),
		// Also the index for a person's orders (user_id leads).
		uniqueIndex('orders_user_idempotency_unique').on(t.userId, t.idempotencyKey),
		index('orders_created_idx').on(t.createdAt),
		index('orders_status_idx').on(t.fulfillmentStatus),
		index('orders_selected_qr_code_idx').on(t.selectedQrCodeId),
		// Account deletion and order tracking find orders by e-mail.
		index('orders_customer_email_idx').on(sql`lower(${t.customerEmail})`),
		notNegative('orders_subtotal_cents_check', t.subtotalCents),
		notNegative('orders_discount_cents_check', t.discountCents),
		notNegative('orders_shipping_cents_check', t.shippingCents),
		notNegative('orders_total_cents_check', t.totalCents),
		...chargeChecks('orders', t),
		// A free order is one whose payment status says so, and nothing was charged for it.
		check('orders_free_check', sql`${t.isFree} = (${t.paymentStatus} = 'free') and (not ${t.isFree} or ${t.chargedCents} = 0)`),
		check('orders_fulfillment_status_check', oneOf(t.fulfillmentStatus, FULFILLMENT_STATUSES)),
		check('orders_payment_status_check', oneOf(t.paymentStatus, ORDER_PAYMENT_STATUSES)),
		check('orders_order_type_check', oneOf(t.orderType, ORDER_TYPES)),
		check('orders_shipping_method_check', oneOf(t.shippingMethod, SHIPPING_METHODS)),
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
	(t) => [
		index('order_items_order_idx').on(t.orderId),
		index('order_items_product_idx').on(t.productId),
		positive('order_items_quantity_check', t.quantity),
		notNegative('order_items_unit_price_cents_check', t.unitPriceCents),
	],
)

/** QR codes the owner assigned to an order during fulfilment. */
export const orderAssignedCodes = pgTable(
	'order_assigned_codes',
	{
		orderId: text()
			.notNull()
			.references(() => orders.id, { onDelete: 'cascade' }),
		qrCodeId: qrCodeKey(),
		assignedAt: createdAt(),
	},
	// A code goes out with one order only.
	(t) => [primaryKey({ columns: [t.orderId, t.qrCodeId] }), uniqueIndex('order_assigned_codes_code_unique').on(t.qrCodeId)],
)

export type Order = typeof orders.$inferSelect
