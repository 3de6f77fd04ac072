import { randomInt, randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { carts, discounts, orderItems, orders, qrCodes, users, type ShippingAddress } from '#db/schema.ts'
import { sendEmail } from '#app/adapters/mail.server.ts'
import { isUniqueViolation } from '#app/domain/accounts/accounts.server.ts'
import { PIN_ALPHABET } from '#app/domain/accounts/schemas.ts'
import { env } from '#app/utils/env.server.ts'
import { lineOptions, lineProblem, type CartItem, type LineDescription } from './cart.ts'
import { productsById } from './cart.server.ts'
import { findDiscount } from './discounts.server.ts'
import { CONFIRMATION_PREFIX, estimatedDelivery } from './orders.ts'
import { formatCents, orderTotals } from './pricing.ts'
import { CHECKOUT_MESSAGES } from './schemas.ts'
import { COUNTRIES, NO_SHIPPING, shippingOption } from './shipping.ts'
import { formatDate } from '#app/utils/dates.ts'
import { DomainError } from '#app/utils/errors.ts'

export type OrderInput = {
	items: CartItem[]
	address: ShippingAddress
	shippingMethod: string
	discountCode?: string | null
	/** The QR code the order is for; without one (or without items) there is nothing to check out. */
	selectedQrCodeId: number | null
	/** The client's key: the same key twice from one person gives the same order, so a double click or a retry never orders twice. */
	idempotencyKey: string
}

export type PlacedOrderRef = { id: string; confirmationNumber: string; free72: boolean }

/** A checkout's order: recorded now, or found already recorded under the same key (a retry, a double click). */
export type PlacedOrder = { outcome: 'placed'; order: PlacedOrderRef } | { outcome: 'alreadyPlaced'; order: PlacedOrderRef }

function newConfirmationNumber() {
	return CONFIRMATION_PREFIX + Array.from({ length: 8 }, () => PIN_ALPHABET[randomInt(PIN_ALPHABET.length)]).join('')
}

async function existingOrder(userId: string, idempotencyKey: string) {
	const [row] = await db
		.select({ id: orders.id, confirmationNumber: orders.confirmationNumber, free72: discounts.marksFreeOrder })
		.from(orders)
		.leftJoin(discounts, eq(sql`upper(${discounts.code})`, orders.discountCode))
		.where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)))
	return row ? { id: row.id, confirmationNumber: row.confirmationNumber, free72: Boolean(row.free72) } : null
}

/** Records a shop order from the catalogue's prices and the spec's shipping and discount rules, in one transaction. */
export async function createShopOrder(userId: string, input: OrderInput): Promise<PlacedOrder> {
	// A retry after success finds its order, even though the order emptied the cart.
	const previous = await existingOrder(userId, input.idempotencyKey)
	if (previous) return { outcome: 'alreadyPlaced', order: previous }
	const selected = input.selectedQrCodeId
	if (!input.items.length || !selected) throw new DomainError(400, CHECKOUT_MESSAGES.cannotCheckout.description)

	const [user, code] = await Promise.all([
		db.query.users.findFirst({ columns: { email: true }, where: eq(users.id, userId) }),
		db.query.qrCodes.findFirst({ columns: { id: true }, where: and(eq(qrCodes.id, selected), eq(qrCodes.userId, userId)) }),
	])
	if (!user) throw new DomainError(404, 'Your account could not be found.')
	if (!code) throw new DomainError(400, CHECKOUT_MESSAGES.cannotCheckout.description)

	const discount = input.discountCode ? await findDiscount(input.discountCode) : null
	if (input.discountCode && !discount) throw new DomainError(400, CHECKOUT_MESSAGES.invalidDiscount)
	const catalogue = await productsById([...new Set(input.items.map((i) => i.productId))])
	const totals = orderTotals(input.items, catalogue, { country: input.address.country, method: input.shippingMethod }, discount)
	if ('error' in totals)
		throw new DomainError(400, totals.error === 'no-shipping' ? NO_SHIPPING : 'One of the items in your cart is no longer available.')
	for (const item of input.items) {
		const problem = lineProblem(
			item,
			catalogue.find((p) => p.id === item.productId)!,
		)
		if (problem) throw new DomainError(400, problem.message)
	}
	const id = randomUUID()
	const free72 = Boolean(discount?.marksFreeOrder)
	for (let attempt = 0; ; attempt++) {
		const confirmationNumber = newConfirmationNumber()
		try {
			await db.transaction(async (tx) => {
				await tx.insert(orders).values({
					id,
					confirmationNumber,
					userId,
					customerName: input.address.name,
					customerEmail: user.email,
					subtotalCents: totals.subtotalCents,
					discountCode: discount?.code ?? null,
					discountCents: totals.discountCents,
					shippingCents: totals.shippingCents,
					totalCents: totals.totalCents,
					shippingMethod: input.shippingMethod,
					shippingCountry: input.address.country,
					shippingAddress: input.address,
					selectedQrCodeId: code.id,
					qrShape: totals.lines[0]?.qrShape ?? null,
					isFree: true,
					paymentStatus: 'free',
					chargedCents: 0,
					idempotencyKey: input.idempotencyKey,
				})
				await tx.insert(orderItems).values(
					totals.lines.map((line) => ({
						orderId: id,
						productId: line.productId,
						name: line.name,
						quantity: line.quantity,
						unitPriceCents: line.unitPriceCents,
						color: line.color,
						addSticker: line.addSticker,
						transparentBackground: line.transparentBackground,
						qrShape: line.qrShape,
						customText: line.customText ?? null,
						stickerSize: line.stickerSize ?? null,
						qrCodeUrl: line.qrCodeUrl ?? null,
					})),
				)
				await tx.update(carts).set({ items: [] }).where(eq(carts.userId, userId))
			})
		} catch (error) {
			if (!isUniqueViolation(error)) throw error
			// A simultaneous submission with the same key won; otherwise the confirmation number collided: draw again.
			const winner = await existingOrder(userId, input.idempotencyKey)
			if (winner) return { outcome: 'alreadyPlaced', order: winner }
			if (attempt < 3) continue
			throw error
		}
		await sendOrderConfirmation(id)
		return { outcome: 'placed', order: { id, confirmationNumber, free72 } }
	}
}

function describeLine(line: LineDescription & { quantity: number; name: string }) {
	const options = lineOptions(line)
	return `${line.quantity} × ${line.name}${options.length ? ` (${options.join(', ')})` : ''}`
}

export function formatAddress(a: ShippingAddress | null) {
	if (!a) return ''
	const country = COUNTRIES.find((c) => c.code === a.country)?.name ?? a.country
	return [a.name, a.address1, a.address2, [a.city, a.state, a.postalCode].filter(Boolean).join(' '), country].filter(Boolean).join('\n')
}

async function sendOrderConfirmation(orderId: string) {
	const order = await getOrder(orderId)
	if (!order) return
	const option = shippingOption(order.shippingCountry ?? 'US', order.shippingMethod ?? 'standard')
	await sendEmail({
		to: order.customerEmail,
		userId: order.userId ?? undefined,
		type: 'order-confirmation',
		subject: `Your order ${order.confirmationNumber} is confirmed`,
		text: [
			`Thank you${order.customerName ? `, ${order.customerName}` : ''}. Your order ${order.confirmationNumber} is confirmed.`,
			order.items.map(describeLine).join('\n'),
			`Total: Free (catalogue value ${formatCents(order.subtotalCents)}${order.discountCents ? `, discount ${formatCents(order.discountCents)}` : ''}, shipping ${formatCents(order.shippingCents)})`,
			`Shipping ${option?.label.toLowerCase() ?? ''} to:\n${formatAddress(order.shippingAddress)}`,
			`We prepare orders within 1-2 business days; estimated delivery by ${formatDate(estimatedDelivery(order.createdAt, order.shippingCountry, order.shippingMethod))}. Tracking follows by e-mail when it ships.`,
			`Track your order with its confirmation number and this e-mail address: ${new URL('/order-tracking', env.PUBLIC_URL)}`,
			`Questions? Write to ${env.SUPPORT_EMAIL}.`,
		].join('\n\n'),
	})
}

async function getOrder(orderId: string) {
	const order = await db.query.orders.findFirst({ where: eq(orders.id, orderId) })
	if (!order) return null
	const items = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.id)
	return { ...order, items }
}

export type OrderView = NonNullable<Awaited<ReturnType<typeof getOrder>>>

/** The order-complete page: only the person who placed it sees it. */
export async function getOwnOrder(userId: string, confirmationNumber: string) {
	const row = await db.query.orders.findFirst({
		columns: { id: true },
		where: and(eq(orders.userId, userId), eq(sql`upper(${orders.confirmationNumber})`, confirmationNumber.trim().toUpperCase())),
	})
	return row ? getOrder(row.id) : null
}

/** Order tracking: the confirmation number and the e-mail the order was placed with, both required to match. */
export async function findOrderForTracking(confirmationNumber: string, email: string) {
	const row = await db.query.orders.findFirst({
		columns: { id: true },
		where: and(
			eq(sql`upper(${orders.confirmationNumber})`, confirmationNumber.trim().toUpperCase()),
			eq(sql`lower(${orders.customerEmail})`, email.trim().toLowerCase()),
		),
	})
	return row ? getOrder(row.id) : null
}

/** After a payment provider's checkout: the order of that session, for the person who placed it. */
/** The person's most recent order: /shop-success reached without a number shows it. */
export async function getLatestOwnOrder(userId: string) {
	const row = await db.query.orders.findFirst({
		columns: { id: true },
		where: eq(orders.userId, userId),
		orderBy: (order, { desc }) => [desc(order.createdAt)],
	})
	return row ? getOrder(row.id) : null
}

export async function getOwnOrderBySession(userId: string, paymentSessionId: string) {
	const row = await db.query.orders.findFirst({
		columns: { id: true },
		where: and(eq(orders.userId, userId), eq(orders.paymentSessionId, paymentSessionId)),
	})
	return row ? getOrder(row.id) : null
}
