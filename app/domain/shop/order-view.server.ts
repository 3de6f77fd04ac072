import { lineOptions } from './cart.ts'
import { findDiscount } from './discounts.server.ts'
import { estimatedDelivery, TRACKING_STEPS, trackingStatus } from './orders.ts'
import { formatAddress, type OrderView } from './orders.server.ts'
import { formatCents } from './pricing.ts'
import { estimateLabel, shippingOption } from './shipping.ts'
import { formatDate } from '#app/utils/dates.ts'

/** An order as the order-complete and order-tracking pages show it: dates in words, money as text. */
export async function presentOrder(order: OrderView) {
	const status = trackingStatus(order.fulfillmentStatus)
	const option = shippingOption(order.shippingCountry ?? 'US', order.shippingMethod ?? 'standard')
	const discount = order.discountCode ? await findDiscount(order.discountCode) : null
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
		shipping: option ? `${option.label} (${estimateLabel(option)})` : (order.shippingMethod ?? ''),
		address: formatAddress(order.shippingAddress).split('\n').filter(Boolean),
		email: order.customerEmail,
		steps: TRACKING_STEPS.map((step, i) => ({ step, completed: i < status.done, date: i < status.done ? stepDates[i] : null })),
	}
}
export type PresentedOrder = Awaited<ReturnType<typeof presentOrder>>
