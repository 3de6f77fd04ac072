import type { FulfillmentStatus } from '#db/schema.ts'
import { addBusinessDays, PROCESSING_DAYS, shippingOption } from './shipping.ts'

/** Spec 002: the five steps of order tracking. */
export const TRACKING_STEPS = ['Order Placed', 'Payment Confirmed', 'Processing', 'Shipped', 'Delivered'] as const

const STATUS = {
	pending: { label: 'Order Placed', done: 2 },
	processing: { label: 'Processing', done: 3 },
	fulfilled: { label: 'Processing', done: 3 },
	shipped: { label: 'Shipped', done: 4 },
	delivered: { label: 'Delivered', done: 5 },
	cancelled: { label: 'Cancelled', done: 0 },
} as const satisfies Record<FulfillmentStatus, { label: string; done: number }>

/** How many tracking steps an order's fulfilment status has completed, and how it reads. */
export function trackingStatus(fulfillmentStatus: string) {
	return STATUS[fulfillmentStatus as keyof typeof STATUS] ?? { label: 'Processing', done: 2 }
}

/** Prepared within PROCESSING_DAYS business days, then the shipping method's longest estimate. */
export function estimatedDelivery(placedAt: Date, country: string | null, method: string | null) {
	const option = shippingOption(country ?? 'US', method ?? 'standard')
	return addBusinessDays(placedAt, PROCESSING_DAYS + (option?.maxDays ?? 7))
}

export const CONFIRMATION_PREFIX = 'HMH-'

/** Where a placed order is confirmed. */
export function checkoutUrl(order: { confirmationNumber: string; free72: boolean }) {
	return `/order-complete?${new URLSearchParams({ order: order.confirmationNumber, ...(order.free72 ? { free72: 'true' } : {}) })}`
}

type Labelled = { id: number; label: string }

/**
 * What the order-complete and order-tracking pages say about the QR code the order carries: the code the shopper chose
 * at checkout (spec 000) and the codes assigned to the order, by their PIN-less labels (codeLabel). Null when there is
 * nothing to say (a cancelled order, or no code either way).
 */
export function carriedCodeSentence({ status, chosen, assigned }: { status: string; chosen: Labelled | null; assigned: Labelled[] }) {
	if (status === 'cancelled') return null
	const list = (codes: Labelled[]) => codes.map((code) => code.label).join(', ')
	const others = assigned.filter((code) => code.id !== chosen?.id)
	if (chosen && others.length < assigned.length)
		return `Your order carries ${chosen.label}, the code you chose at checkout.${others.length ? ` It also comes with ${list(others)}.` : ''}`
	if (chosen && (status === 'pending' || status === 'processing'))
		return `Your order will carry ${chosen.label}, the code you chose at checkout.`
	return assigned.length ? `Your order comes with ${list(assigned)}.` : null
}
