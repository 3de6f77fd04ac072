// Spec 002 §9: the windows the owner can choose. Client-safe and zod-free (admin pages import it).
import { etDay, isDayString } from './et-time.ts'

export const FILTER_HOURS = [6, 12, 24, 48, 72] as const
export type FilterHours = (typeof FILTER_HOURS)[number]
export const DEFAULT_FILTER_HOURS: FilterHours = 24

/** `?hours=`: one of 6, 12, 24, 48, 72, else null (the JSON call answers 400, the page shows the default). */
export function parseFilterHours(value: unknown): FilterHours | null {
	const hours = typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN
	return (FILTER_HOURS as readonly number[]).includes(hours) ? (hours as FilterHours) : null
}

/** The earliest day the traffic tab offers: nothing was recorded before the foundation's platform existed. */
export const FIRST_TRAFFIC_DAY = '2020-01-01'

/** A traffic date: an ET calendar day from FIRST_TRAFFIC_DAY to today, else null. */
export function parseTrafficDay(value: unknown, now = new Date()): string | null {
	if (!isDayString(value)) return null
	return value >= FIRST_TRAFFIC_DAY && value <= etDay(now) ? value : null
}

export const INVALID_HOURS = `hours must be one of ${FILTER_HOURS.join(', ')}`
export const INVALID_DAY = `The date must be a day from ${FIRST_TRAFFIC_DAY} to today, written YYYY-MM-DD`
