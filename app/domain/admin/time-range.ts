// Spec 002 §9: the admin header's time ranges. Client-safe: the selector and the server share them.

export const TIME_RANGES = ['24hours', '7days', '30days', '90days'] as const
export type TimeRange = (typeof TIME_RANGES)[number]

export const DEFAULT_TIME_RANGE: TimeRange = '7days'

export const TIME_RANGE_LABELS: Record<TimeRange, string> = {
	'24hours': 'Last 24 hours',
	'7days': 'Last 7 days',
	'30days': 'Last 30 days',
	'90days': 'Last 90 days',
}

const HOUR_MS = 3_600_000
const RANGE_HOURS: Record<TimeRange, number> = { '24hours': 24, '7days': 7 * 24, '30days': 30 * 24, '90days': 90 * 24 }

export function isTimeRange(value: unknown): value is TimeRange {
	return typeof value === 'string' && (TIME_RANGES as readonly string[]).includes(value)
}

/**
 * A `?timeRange=` value: anything else (missing, misspelt, an array) is the default, never an error. Written without
 * zod: the admin header imports this module, and zod would add 24 KB to every admin page.
 */
export const TimeRangeSchema = { parse: (value: unknown): TimeRange => (isTimeRange(value) ? value : DEFAULT_TIME_RANGE) }

/** The first instant inside the range that ends at `now` (a rolling window, not calendar days). */
export function timeRangeStart(range: TimeRange, now: Date = new Date()) {
	return new Date(now.getTime() - RANGE_HOURS[range] * HOUR_MS)
}
