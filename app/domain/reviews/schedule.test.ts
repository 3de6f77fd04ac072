import { describe, expect, test } from 'vitest'
import { addMonths, reviewStatus } from './schedule.ts'

describe('review dates', () => {
	test('months are added in UTC with the day clamped to the month, as PostgreSQL does', () => {
		expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z')
		expect(addMonths(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z')
		expect(addMonths(new Date('2026-08-31T23:30:00Z'), 6).toISOString()).toBe('2027-02-28T23:30:00.000Z')
		expect(addMonths(new Date('2026-05-15T00:00:00Z'), 24).toISOString()).toBe('2028-05-15T00:00:00.000Z')
	})

	test('due once the interval since the last confirmation (or creation) has passed', () => {
		const createdAt = new Date('2026-01-10T12:00:00Z')
		const never = { confirmedAt: null, createdAt, reviewIntervalMonths: 6 }
		expect(reviewStatus(never, new Date('2026-07-10T11:59:59Z')).due).toBe(false)
		expect(reviewStatus(never, new Date('2026-07-10T12:00:00Z'))).toMatchObject({ due: true, confirmedOn: createdAt })
		const confirmed = { confirmedAt: '2026-06-01T00:00:00Z', createdAt, reviewIntervalMonths: 1 }
		expect(reviewStatus(confirmed, new Date('2026-07-01T00:00:00Z')).dueAt.toISOString()).toBe('2026-07-01T00:00:00.000Z')
		expect(reviewStatus(confirmed, new Date('2026-06-30T00:00:00Z')).due).toBe(false)
	})
})
