import { describe, expect, test } from 'vitest'
import { formatDollars, grossToCoverFees, tierCents } from './amounts.ts'

describe('covering the fees', () => {
	test('the charge leaves the gift whole after 2.9% + 30 cents', () => {
		for (const net of [100, 500, 1500, 5000, 1_000_000, 1234, 9999]) {
			const gross = grossToCoverFees(net)
			const left = (cents: number) => (cents * 971) / 1000 - 30
			expect(left(gross), String(net)).toBeGreaterThanOrEqual(net)
			// And no more than needed: a cent less would fall short.
			expect(left(gross - 1), String(net)).toBeLessThan(net)
		}
	})
	test('$15 becomes $15.76; $5 becomes $5.46', () => {
		expect(grossToCoverFees(1500)).toBe(1576)
		expect(grossToCoverFees(500)).toBe(546)
		expect(formatDollars(1576)).toBe('$15.76')
	})
})

test('a tier gives its preset amount whatever is typed; the custom tier gives what was typed, or null when it is not an amount', () => {
	expect(tierCents('advocate', 'abc')).toBe(1500)
	expect(tierCents('custom', '42.50')).toBe(4250)
	expect(tierCents('custom', '1.234')).toBeNull()
	expect(tierCents('custom')).toBeNull()
})
