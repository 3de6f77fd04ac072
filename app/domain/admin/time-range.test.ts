import { expect, test } from 'vitest'
import { DEFAULT_TIME_RANGE, isTimeRange, TIME_RANGE_LABELS, TIME_RANGES, TimeRangeSchema, timeRangeStart } from './time-range.ts'

test("the spec's four ranges, 7 days by default, with labels", () => {
	expect(TIME_RANGES).toEqual(['24hours', '7days', '30days', '90days'])
	expect(DEFAULT_TIME_RANGE).toBe('7days')
	expect(TIME_RANGE_LABELS).toEqual({
		'24hours': 'Last 24 hours',
		'7days': 'Last 7 days',
		'30days': 'Last 30 days',
		'90days': 'Last 90 days',
	})
})

test('the schema keeps a known range and falls back to the default for anything else', () => {
	for (const range of TIME_RANGES) expect(TimeRangeSchema.parse(range)).toBe(range)
	for (const other of [undefined, null, '', '7 days', '1year', '24HOURS', ['30days'], 30, {}])
		expect(TimeRangeSchema.parse(other)).toBe('7days')
	expect(isTimeRange('90days')).toBe(true)
	expect(isTimeRange('toString')).toBe(false)
})

test('a range starts that many hours before now', () => {
	const now = new Date('2026-03-10T12:00:00Z')
	expect(timeRangeStart('24hours', now).toISOString()).toBe('2026-03-09T12:00:00.000Z')
	expect(timeRangeStart('7days', now).toISOString()).toBe('2026-03-03T12:00:00.000Z')
	expect(timeRangeStart('30days', now).toISOString()).toBe('2026-02-08T12:00:00.000Z')
	expect(timeRangeStart('90days', now).toISOString()).toBe('2025-12-10T12:00:00.000Z')
	const before = Date.now()
	expect(timeRangeStart('24hours').getTime()).toBeGreaterThanOrEqual(before - 24 * 3_600_000)
})
