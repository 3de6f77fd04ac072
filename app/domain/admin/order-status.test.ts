import { describe, expect, test } from 'vitest'
import {
	canGenerateDocument,
	canMarkShipped,
	DOCUMENT_NEEDS_CODES,
	FULFILLMENT_FLOW,
	nextStatusProblem,
	statusBadge,
} from './order-status.ts'

type Status = (typeof FULFILLMENT_FLOW)[number]

/** Every move the status call allows, with the fewest assigned codes it needs; every other pair is refused. */
const ALLOWED: Partial<Record<`${Status}>${Status}`, number>> = {
	'pending>processing': 1,
	'pending>cancelled': 0,
	'processing>fulfilled': 1,
	'processing>shipped': 0,
	'processing>cancelled': 0,
	'fulfilled>shipped': 0,
	'fulfilled>cancelled': 0,
	'shipped>delivered': 0,
}

const pairs = FULFILLMENT_FLOW.flatMap((from) => FULFILLMENT_FLOW.map((to) => [from, to] as const))

describe('nextStatusProblem over every (from, to) pair', () => {
	test.each(pairs)('%s → %s', (from, to) => {
		const needed = ALLOWED[`${from}>${to}`]
		for (const assigned of [0, 1, 3]) {
			const problem = nextStatusProblem(from, to, assigned)
			if (needed !== undefined && assigned >= needed) expect(problem, `${from}→${to} with ${assigned} codes`).toBeNull()
			else expect(problem, `${from}→${to} with ${assigned} codes`).toEqual(expect.any(String))
		}
	})

	test.each([
		['pending', 'pending', 2, 'This order is already pending.'],
		['shipped', 'shipped', 2, 'This order is already shipped.'],
		['pending', 'processing', 0, 'Assign at least one QR code before moving this order to processing.'],
		['pending', 'fulfilled', 2, DOCUMENT_NEEDS_CODES],
		['processing', 'fulfilled', 0, DOCUMENT_NEEDS_CODES],
		['pending', 'shipped', 2, 'Only a processing or fulfilled order can be marked as shipped.'],
		['fulfilled', 'delivered', 2, 'Only a shipped order can be marked as delivered.'],
		['shipped', 'processing', 2, 'An order cannot go back from shipped to processing.'],
		['fulfilled', 'pending', 2, 'An order cannot go back from fulfilled to pending.'],
		['shipped', 'cancelled', 2, 'A shipped order cannot be cancelled.'],
		['cancelled', 'processing', 2, 'This order was cancelled; its status cannot change.'],
		['delivered', 'shipped', 2, 'This order was delivered; its status cannot change.'],
		['processing', 'lost', 2, 'Unknown fulfillment status: lost.'],
		['on-hold', 'processing', 2, "This order's status (on-hold) is unknown and cannot be changed here."],
	])('%s → %s (%i codes): %s', (from, to, assigned, message) => {
		expect(nextStatusProblem(from, to, assigned)).toBe(message)
	})
})

describe('the buttons', () => {
	test.each(FULFILLMENT_FLOW.flatMap((status) => [0, 2].map((assignedCount) => [status, assignedCount] as const)))(
		'document for %s with %i codes',
		(status, assignedCount) => {
			const expected = assignedCount > 0 && ['processing', 'fulfilled', 'shipped', 'delivered'].includes(status)
			expect(canGenerateDocument({ status, assignedCount })).toBe(expected)
		},
	)

	test('an unknown status never makes a document', () => {
		expect(canGenerateDocument({ status: 'mystery', assignedCount: 4 })).toBe(false)
	})

	test.each(FULFILLMENT_FLOW)('Mark as Shipped from %s', (status) => {
		expect(canMarkShipped(status)).toBe(status === 'processing' || status === 'fulfilled')
	})
})

describe('badges', () => {
	test('every status has a label and a tone of its own; unknown ones are neutral', () => {
		expect(FULFILLMENT_FLOW.map((s) => statusBadge(s).label)).toEqual([
			'Pending',
			'Processing',
			'Fulfilled',
			'Shipped',
			'Delivered',
			'Cancelled',
		])
		for (const s of FULFILLMENT_FLOW) expect(statusBadge(s).tone).not.toBe('neutral')
		expect(statusBadge('on-hold')).toEqual({ label: 'On-hold', tone: 'neutral', description: 'Unknown status' })
		expect(statusBadge('')).toMatchObject({ label: 'Unknown', tone: 'neutral' })
		expect(statusBadge('constructor')).toMatchObject({ tone: 'neutral' })
	})
})
