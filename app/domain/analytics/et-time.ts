// Spec 002 §9: the owner reads analytics by the foundation's clock, America/New_York. Client-safe, no dependencies.

const ZONE = 'America/New_York'
const HOUR_MS = 3_600_000

const wallClock = new Intl.DateTimeFormat('en-US', {
	timeZone: ZONE,
	hourCycle: 'h23',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
})

function parts(date: Date) {
	const out: Record<string, number> = {}
	for (const part of wallClock.formatToParts(date)) if (part.type !== 'literal') out[part.type] = Number(part.value)
	return out as { year: number; month: number; day: number; hour: number; minute: number; second: number }
}

/** Minutes ET is ahead of UTC at that instant (-300 in winter, -240 in summer). */
function offsetMinutes(date: Date) {
	const p = parts(date)
	const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
	return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000)
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The ET calendar day of an instant, as 'YYYY-MM-DD'. */
export function etDay(date: Date) {
	const p = parts(date)
	return `${p.year}-${pad(p.month)}-${pad(p.day)}`
}

/** The hour (0–23) on an ET wall clock at that instant. */
export function etHour(date: Date) {
	return parts(date).hour
}

export function isDayString(value: unknown): value is string {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
	const date = new Date(`${value}T12:00:00Z`)
	return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

/** The instant an ET day begins. Clocks change at 2 AM, so midnight's offset is the one five hours after UTC midnight. */
export function etDayStart(day: string) {
	const [y, m, d] = day.split('-').map(Number) as [number, number, number]
	const midnightUtc = Date.UTC(y, m - 1, d)
	return new Date(midnightUtc - offsetMinutes(new Date(midnightUtc + 5 * HOUR_MS)) * 60_000)
}

/** The day after an ET day, as 'YYYY-MM-DD'. */
export function nextDay(day: string) {
	const date = new Date(`${day}T12:00:00Z`)
	date.setUTCDate(date.getUTCDate() + 1)
	return date.toISOString().slice(0, 10)
}

/** [start, end) of an ET day: 23, 24 or 25 hours long. */
export function etDayBounds(day: string) {
	return { start: etDayStart(day), end: etDayStart(nextDay(day)) }
}

/** Each ET day from the one holding `start` to the one holding the instant before `end`. */
export function etDaysBetween(start: Date, end: Date) {
	const days: string[] = []
	const last = etDay(new Date(end.getTime() - 1))
	for (let day = etDay(start); day <= last && days.length < 4000; day = nextDay(day)) days.push(day)
	return days
}

export function floorHour(date: Date) {
	return new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS)
}

export function ceilHour(date: Date) {
	return new Date(Math.ceil(date.getTime() / HOUR_MS) * HOUR_MS)
}

export { HOUR_MS }
