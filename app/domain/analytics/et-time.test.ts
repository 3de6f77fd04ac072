import { describe, expect, test } from 'vitest'
import { etDay, etDayBounds, etDaysBetween, etHour, isDayString, nextDay } from './et-time.ts'

describe('the foundation clock (America/New_York)', () => {
	test('an ET day begins at 05:00 UTC in winter and 04:00 UTC in summer', () => {
		expect(etDayBounds('2026-01-15').start.toISOString()).toBe('2026-01-15T05:00:00.000Z')
		expect(etDayBounds('2026-07-04').start.toISOString()).toBe('2026-07-04T04:00:00.000Z')
	})

	test('the day clocks spring forward has 23 hours, the day they fall back 25', () => {
		const hours = (day: string) => {
			const { start, end } = etDayBounds(day)
			return (end.getTime() - start.getTime()) / 3_600_000
		}
		expect(hours('2026-03-08')).toBe(23)
		expect(hours('2026-11-01')).toBe(25)
		expect(hours('2026-11-02')).toBe(24)
	})

	test('an instant belongs to the ET day and hour on the wall clock', () => {
		expect(etDay(new Date('2026-11-25T04:59:59Z'))).toBe('2026-11-24')
		expect(etDay(new Date('2026-11-25T05:00:00Z'))).toBe('2026-11-25')
		expect(etHour(new Date('2026-11-25T05:00:00Z'))).toBe(0)
		expect(etHour(new Date('2026-07-04T03:59:00Z'))).toBe(23)
	})

	test('days between two instants, and day strings', () => {
		expect(etDaysBetween(new Date('2026-11-24T12:00:00Z'), new Date('2026-11-26T05:00:00Z'))).toEqual(['2026-11-24', '2026-11-25'])
		expect(nextDay('2026-12-31')).toBe('2027-01-01')
		expect(isDayString('2026-02-29')).toBe(false)
		expect(isDayString('2028-02-29')).toBe(true)
		expect(isDayString('2026-1-01')).toBe(false)
		expect(isDayString(['2026-01-01'])).toBe(false)
	})
})
