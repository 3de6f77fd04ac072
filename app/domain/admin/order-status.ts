import type { FulfillmentStatus } from '#db/schema.ts'

/**
 * Spec 002 §4, order fulfilment: pending (awaiting QR assignment) → processing (QR codes assigned) → fulfilled (shipping
 * document generated) → shipped → delivered. Assigning codes and opening the shipping document move an order forward
 * by themselves; the status call (PATCH …/status) may ask for these moves only:
 *
 * | from        | allowed to                          | condition                                     |
 * |-------------|-------------------------------------|-----------------------------------------------|
 * | pending     | processing, cancelled               | processing: at least one code assigned        |
 * | processing  | fulfilled, shipped, cancelled       | fulfilled: canGenerateDocument                |
 * | fulfilled   | shipped, cancelled                  |                                               |
 * | shipped     | delivered                           |                                               |
 * | delivered   | nothing                             |                                               |
 * | cancelled   | nothing                             |                                               |
 *
 * Asking for the status an order already has is refused ("already …"): a repeated request changes nothing and sends
 * no second e-mail. Going back (e.g. shipped → processing) is refused; an order loses its codes only through
 * unassigning them, which may return it to pending. Statuses this code does not know change nothing.
 */
export const FULFILLMENT_FLOW = [
	'pending',
	'processing',
	'fulfilled',
	'shipped',
	'delivered',
	'cancelled',
] as const satisfies readonly FulfillmentStatus[]

export type BadgeTone = 'neutral' | 'info' | 'warning' | 'success' | 'danger'
export type StatusBadge = { label: string; tone: BadgeTone; description: string }

const BADGES = {
	pending: { label: 'Pending', tone: 'warning', description: 'Awaiting QR assignment' },
	processing: { label: 'Processing', tone: 'info', description: 'QR codes assigned, ready for document generation' },
	fulfilled: { label: 'Fulfilled', tone: 'success', description: 'Document generated, ready to ship' },
	shipped: { label: 'Shipped', tone: 'success', description: 'On its way to the customer' },
	delivered: { label: 'Delivered', tone: 'success', description: 'Delivered to the customer' },
	cancelled: { label: 'Cancelled', tone: 'danger', description: 'Will not be shipped' },
} as const satisfies Record<FulfillmentStatus, StatusBadge>

export function isFulfillmentStatus(value: unknown): value is FulfillmentStatus {
	return typeof value === 'string' && Object.hasOwn(BADGES, value)
}

/** The badge of a status; one this code does not know gets a neutral badge with its own name. */
export function statusBadge(status: string): StatusBadge {
	if (isFulfillmentStatus(status)) return BADGES[status]
	const name = status.trim()
	return { label: name ? name.charAt(0).toUpperCase() + name.slice(1) : 'Unknown', tone: 'neutral', description: 'Unknown status' }
}

const label = (status: string) => statusBadge(status).label.toLowerCase()

export const DOCUMENT_NEEDS_CODES = 'Assign QR codes to this order before printing its shipping document.'

/** Why the shipping document cannot be made now, or null: codes are assigned and the order is past pending. */
export function documentProblem({ status, assignedCount }: { status: string; assignedCount: number }): string | null {
	if (status === 'cancelled') return 'This order was cancelled; it has no shipping document.'
	if (!isFulfillmentStatus(status)) return `This order's status (${status}) is unknown.`
	if (status === 'pending' || assignedCount < 1) return DOCUMENT_NEEDS_CODES
	return null
}

/** Spec 002 §4: the shipping-document button is enabled only when QR codes are assigned and the status is not pending. */
export function canGenerateDocument(order: { status: string; assignedCount: number }) {
	return documentProblem(order) === null
}

/** Spec 002 §4: Mark as Shipped is enabled only from fulfilled or processing. */
export function canMarkShipped(status: string) {
	return status === 'fulfilled' || status === 'processing'
}

/** Whether an order can take or lose QR codes. */
export function canChangeCodes(status: string) {
	return status === 'pending' || status === 'processing'
}

/** Why the status call may not move an order from `from` to `to`, or null when it may. */
export function nextStatusProblem(from: string, to: string, assignedCount: number): string | null {
	if (!isFulfillmentStatus(to)) return `Unknown fulfillment status: ${to.slice(0, 40)}.`
	if (!isFulfillmentStatus(from)) return `This order's status (${from}) is unknown and cannot be changed here.`
	if (from === to) return `This order is already ${label(to)}.`
	if (from === 'cancelled') return 'This order was cancelled; its status cannot change.'
	if (from === 'delivered') return 'This order was delivered; its status cannot change.'
	if (to === 'cancelled') return from === 'shipped' ? 'A shipped order cannot be cancelled.' : null
	if (FULFILLMENT_FLOW.indexOf(to) < FULFILLMENT_FLOW.indexOf(from)) return `An order cannot go back from ${label(from)} to ${label(to)}.`
	switch (to) {
		case 'processing':
			return assignedCount > 0 ? null : 'Assign at least one QR code before moving this order to processing.'
		case 'fulfilled':
			return documentProblem({ status: from, assignedCount })
		case 'shipped':
			return canMarkShipped(from) ? null : 'Only a processing or fulfilled order can be marked as shipped.'
		case 'delivered':
			return from === 'shipped' ? null : 'Only a shipped order can be marked as delivered.'
		default:
			return `An order cannot move from ${label(from)} to ${label(to)}.`
	}
}
