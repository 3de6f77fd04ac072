import { lineOptions } from './cart.ts'
import { findDiscount } from './discounts.server.ts'
import { carriedCodeSentence, estimatedDelivery, TRACKING_STEPS, trackingStatus } from './orders.ts'
import { formatAddress, type OrderView } from './orders.server.ts'
import { formatCents } from './pricing.ts'
import { estimateLabel, shippingOption } from './shipping.ts'
import { codeLabel } from '#app/domain/qr/code-label.ts'
import { formatDate } from '#app/utils/dates.ts'
import { db } from '#db/client.ts'
import { orderAssignedCodes, qrCodes } from '#db/schema.ts'
import { asc, eq, or } from 'drizzle-orm'

/** The order's chosen code and assigned codes, by their PIN-less labels, and the sentence the pages show. */
async function carriedCode(order: OrderView) {
	const rows = await db
		.select({ id: qrCodes.id, pin: qrCodes.pin, orderId: orderAssignedCodes.orderId })
		.from(qrCodes)
		.leftJoin(orderAssignedCodes, eq(orderAssignedCodes.qrCodeId, qrCodes.id))
		.where(
			or(eq(orderAssignedCodes.orderId, order.id), order.selectedQrCodeId === null ? undefined : eq(qrCodes.id, order.selectedQrCodeId)),
		)
		.orderBy(asc(qrCodes.id))
	const labelled = (row: (typeof rows)[number]) => ({ id: row.id, label: codeLabel(row) })
	const chosen = rows.find((row) => row.id === order.selectedQrCodeId)
	return carriedCodeSentence({
		status: order.fulfillmentStatus,
		chosen: chosen ? labelled(chosen) : null,
		assigned: rows.filter((row) => row.orderId === order.id).map(labelled),
	})
}

/** An order as the order-complete and order-tracking pages show it: dates in words, money as text. */
export async function presentOrder(order: OrderView) {
	const status = trackingStatus(order.fulfillmentStatus)
	const option = shippingOption(order.shippingCountry ?? 'US', order.shippingMethod ?? 'standard')
	const [discount, carries] = await Promise.all([order.discountCode ? findDiscount(order.discountCode) : null, carriedCode(order)])
	const placed = formatDate(order.createdAt)
	const stepDates: Array<string | null> = [placed, placed, null, order.shippedAt ? formatDate(order.shippedAt) : null, null]
	return {
		confirmationNumber: order.confirmationNumber,
		placedOn: placed,
		status: status.label,
		estimatedDelivery:
			order.fulfillmentStatus === 'cancelled'
				? null
				: formatDate(estimatedDelivery(order.createdAt, order.shippingCountry, order.shippingMethod)),
		items: order.items.map((item) => ({
			id: item.id,
			name: item.name,
			quantity: item.quantity,
			unitValue: formatCents(item.unitPriceCents),
			options: lineOptions(item),
		})),
		value: {
			subtotal: formatCents(order.subtotalCents),
			discount: order.discountCents ? `−${formatCents(order.discountCents)}` : null,
			shipping: formatCents(order.shippingCents),
			total: formatCents(order.totalCents),
		},
		discountCode: order.discountCode,
		free72: Boolean(discount?.marksFreeOrder),
		/** Which QR code the order carries (carriedCodeSentence); null when there is nothing to say. */
		carries,
		shipping: option ? `${option.label} (${estimateLabel(option)})` : (order.shippingMethod ?? ''),
		address: formatAddress(order.shippingAddress).split('\n').filter(Boolean),
		email: order.customerEmail,
		steps: TRACKING_STEPS.map((step, i) => ({ step, completed: i < status.done, date: i < status.done ? stepDates[i] : null })),
	}
}
export type PresentedOrder = Awaited<ReturnType<typeof presentOrder>>
