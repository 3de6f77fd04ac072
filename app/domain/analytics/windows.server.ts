import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { db, instant, rowsOf } from '#db/client.ts'
import { qrScans, scanHourly, visitHourly, visitorDaily, visitorHourly, visits } from '#db/schema.ts'
import { ceilHour, etDayBounds, etDaysBetween, floorHour } from './et-time.ts'
import { REAL_VISIT } from './rollup.server.ts'

// The one way analytics reads a window of time: whole hours before the rollup mark from the rollup tables, the rest
// (the first partial hour of a rolling window, and everything since the mark) from the raw rows, which the time index
// keeps to a few hours. Every figure is exact, and fresh to the second.

export type Span = { from: Date; to: Date }
export type Window = { start: Date; end: Date }
type Parts = { rolled: Span | null; raw: Span[] }

export function splitWindow({ start, end }: Window, doneUntil: Date): Parts {
	const a = ceilHour(start)
	const b = new Date(Math.min(doneUntil.getTime(), floorHour(end).getTime()))
	if (a >= b) return { rolled: null, raw: start < end ? [{ from: start, to: end }] : [] }
	const raw: Span[] = []
	if (start < a) raw.push({ from: start, to: a })
	if (b < end) raw.push({ from: b, to: end })
	return { rolled: { from: a, to: b }, raw }
}

function within(column: SQL | typeof visits.visitedAt | typeof qrScans.scannedAt, spans: Span[]) {
	if (!spans.length) return sql`false`
	return sql.join(
		spans.map((span) => sql`(${column} >= ${instant(span.from)} and ${column} < ${instant(span.to)})`),
		sql` or `,
	)
}

const int = (expression: SQL) => sql<number>`coalesce(${expression}, 0)::int`.mapWith(Number)
const toDate = (value: unknown) => (value == null ? null : new Date(value as string))
const later = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b)

export type VisitCounts = {
	visits: number
	realVisits: number
	botVisits: number
	ownerVisits: number
	excludedVisits: number
	lastVisitAt: Date | null
	lastRealVisitAt: Date | null
}

/** Page views of the window: people's (`visits`), real users' and what was left out of the latter. */
export async function visitCounts(window: Window, doneUntil: Date): Promise<VisitCounts> {
	const { rolled, raw } = splitWindow(window, doneUntil)
	const fromRollup = rolled
		? db
				.select({
					visits: int(sql`sum(${visitHourly.visits})`),
					realVisits: int(sql`sum(${visitHourly.realVisits})`),
					botVisits: int(sql`sum(${visitHourly.botVisits})`),
					ownerVisits: int(sql`sum(${visitHourly.ownerVisits})`),
					excludedVisits: int(sql`sum(${visitHourly.excludedVisits})`),
					lastVisitAt: sql`max(${visitHourly.lastVisitAt})`.mapWith(toDate),
					lastRealVisitAt: sql`max(${visitHourly.lastRealVisitAt})`.mapWith(toDate),
				})
				.from(visitHourly)
				.where(and(eq(visitHourly.dimension, 'all'), gte(visitHourly.hour, rolled.from), lt(visitHourly.hour, rolled.to)))
		: null
	const fromRaw = raw.length
		? db
				.select({
					visits: int(sql`count(*) filter (where not ${visits.isBot})`),
					realVisits: int(sql`count(*) filter (where ${REAL_VISIT})`),
					botVisits: int(sql`count(*) filter (where ${visits.isBot})`),
					ownerVisits: int(sql`count(*) filter (where not ${visits.isBot} and ${visits.isOwner})`),
					excludedVisits: int(sql`count(*) filter (where not ${visits.isBot} and not ${visits.isOwner} and ${visits.isExcluded})`),
					lastVisitAt: sql`max(${visits.visitedAt}) filter (where not ${visits.isBot})`.mapWith(toDate),
					lastRealVisitAt: sql`max(${visits.visitedAt}) filter (where ${REAL_VISIT})`.mapWith(toDate),
				})
				.from(visits)
				.where(within(visits.visitedAt, raw))
		: null
	const [[a], [b]] = await Promise.all([fromRollup ?? [undefined], fromRaw ?? [undefined]])
	return {
		visits: (a?.visits ?? 0) + (b?.visits ?? 0),
		realVisits: (a?.realVisits ?? 0) + (b?.realVisits ?? 0),
		botVisits: (a?.botVisits ?? 0) + (b?.botVisits ?? 0),
		ownerVisits: (a?.ownerVisits ?? 0) + (b?.ownerVisits ?? 0),
		excludedVisits: (a?.excludedVisits ?? 0) + (b?.excludedVisits ?? 0),
		lastVisitAt: later(a?.lastVisitAt ?? null, b?.lastVisitAt ?? null),
		lastRealVisitAt: later(a?.lastRealVisitAt ?? null, b?.lastRealVisitAt ?? null),
	}
}

/** The latest real visit ever: the raw rows since the mark, else the newest rolled-up hour that had one. */
export async function lastRealVisit(doneUntil: Date) {
	const [recent] = await db
		.select({ at: sql`max(${visits.visitedAt})`.mapWith(toDate) })
		.from(visits)
		.where(and(gte(visits.visitedAt, doneUntil), REAL_VISIT))
	if (recent?.at) return recent.at
	const [rolled] = await db
		.select({ at: visitHourly.lastRealVisitAt })
		.from(visitHourly)
		.where(and(eq(visitHourly.dimension, 'all'), sql`${visitHourly.lastRealVisitAt} is not null`))
		.orderBy(sql`${visitHourly.hour} desc`)
		.limit(1)
	return rolled?.at ?? null
}

export type VisitDimension = 'path' | 'browser' | 'device' | 'referrer' | 'email'

const RAW_DIMENSION: Record<VisitDimension, SQL> = {
	path: sql`${visits.path}`,
	browser: sql`coalesce(${visits.browser}, 'Other')`,
	device: sql`coalesce(${visits.deviceType}, 'desktop')`,
	referrer: sql`${visits.referrerHost}`,
	email: sql`case when ${visits.emailId} is not null then '1' end`,
}

/** People's page views of the window by one dimension, most first (ties by name). `real` counts real users' only. */
export async function visitsBy(dimension: VisitDimension, window: Window, doneUntil: Date, { real = false, limit = 50 } = {}) {
	const { rolled, raw } = splitWindow(window, doneUntil)
	const column = real ? visitHourly.realVisits : visitHourly.visits
	const value = RAW_DIMENSION[dimension]
	const [a, b] = await Promise.all([
		rolled
			? db
					.select({ value: visitHourly.value, visits: int(sql`sum(${column})`) })
					.from(visitHourly)
					.where(and(eq(visitHourly.dimension, dimension), gte(visitHourly.hour, rolled.from), lt(visitHourly.hour, rolled.to)))
					.groupBy(visitHourly.value)
			: [],
		raw.length
			? db
					.select({ value: sql<string>`${value}`, visits: int(sql`count(*)`) })
					.from(visits)
					.where(and(within(visits.visitedAt, raw), real ? REAL_VISIT : sql`not ${visits.isBot}`, sql`${value} is not null`))
					.groupBy(value)
			: [],
	])
	const totals = new Map<string, number>()
	for (const row of [...a, ...b]) totals.set(row.value, (totals.get(row.value) ?? 0) + row.visits)
	return [...totals]
		.filter(([, count]) => count > 0)
		.sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
		.slice(0, limit)
		.map(([name, count]) => ({ value: name, visits: count }))
}

export type HourCount = { hour: Date; visits: number; realVisits: number; uniqueVisitors: number; realUsers: number }

/** Each hour of the window (the first one possibly partial), with its page views and distinct visitors. */
export async function hourlyCounts(window: Window, doneUntil: Date): Promise<HourCount[]> {
	const { rolled, raw } = splitWindow(window, doneUntil)
	const hour = sql`date_trunc('hour', ${visits.visitedAt}, 'UTC')`
	const [views, people, rawRows] = await Promise.all([
		rolled
			? db
					.select({ hour: visitHourly.hour, visits: visitHourly.visits, realVisits: visitHourly.realVisits })
					.from(visitHourly)
					.where(and(eq(visitHourly.dimension, 'all'), gte(visitHourly.hour, rolled.from), lt(visitHourly.hour, rolled.to)))
			: [],
		rolled
			? db
					.select({
						hour: visitorHourly.hour,
						uniqueVisitors: int(sql`count(*)`),
						realUsers: int(sql`count(*) filter (where ${visitorHourly.isReal})`),
					})
					.from(visitorHourly)
					.where(and(gte(visitorHourly.hour, rolled.from), lt(visitorHourly.hour, rolled.to)))
					.groupBy(visitorHourly.hour)
			: [],
		raw.length
			? db
					.select({
						hour: sql`${hour}`.mapWith(toDate),
						visits: int(sql`count(*) filter (where not ${visits.isBot})`),
						realVisits: int(sql`count(*) filter (where ${REAL_VISIT})`),
						uniqueVisitors: int(sql`count(distinct ${visits.visitorHash}) filter (where not ${visits.isBot})`),
						realUsers: int(sql`count(distinct ${visits.visitorHash}) filter (where ${REAL_VISIT})`),
					})
					.from(visits)
					.where(within(visits.visitedAt, raw))
					.groupBy(hour)
			: [],
	])
	const byHour = new Map<number, HourCount>()
	for (let t = floorHour(window.start).getTime(); t < window.end.getTime(); t += 3_600_000)
		byHour.set(t, { hour: new Date(t), visits: 0, realVisits: 0, uniqueVisitors: 0, realUsers: 0 })
	const slot = (at: Date | null) => (at ? byHour.get(floorHour(at).getTime()) : undefined)
	for (const row of views) {
		const entry = slot(row.hour)
		if (entry) Object.assign(entry, { visits: entry.visits + row.visits, realVisits: entry.realVisits + row.realVisits })
	}
	for (const row of people) {
		const entry = slot(row.hour)
		if (entry)
			Object.assign(entry, { uniqueVisitors: entry.uniqueVisitors + row.uniqueVisitors, realUsers: entry.realUsers + row.realUsers })
	}
	for (const row of rawRows) {
		const entry = slot(row.hour)
		if (!entry) continue
		entry.visits += row.visits
		entry.realVisits += row.realVisits
		entry.uniqueVisitors += row.uniqueVisitors
		entry.realUsers += row.realUsers
	}
	return [...byHour.values()]
}

export type VisitorCounts = {
	visitors: number
	realUsers: number
	firstTimeVisitors: number
	returningVisitors: number
	emailVisitors: number
}
const NO_VISITORS: VisitorCounts = { visitors: 0, realUsers: 0, firstTimeVisitors: 0, returningVisitors: 0, emailVisitors: 0 }

function add(a: VisitorCounts, b: Partial<VisitorCounts> | undefined): VisitorCounts {
	return {
		visitors: a.visitors + (b?.visitors ?? 0),
		realUsers: a.realUsers + (b?.realUsers ?? 0),
		firstTimeVisitors: a.firstTimeVisitors + (b?.firstTimeVisitors ?? 0),
		returningVisitors: a.returningVisitors + (b?.returningVisitors ?? 0),
		emailVisitors: a.emailVisitors + (b?.emailVisitors ?? 0),
	}
}

/** Distinct visitors of part of one ET day (their hashes are that day's): rolled-up hours and raw rows together. */
async function visitorsOfPartOfDay(window: Window, doneUntil: Date): Promise<VisitorCounts> {
	const { rolled, raw } = splitWindow(window, doneUntil)
	const parts: SQL[] = []
	if (rolled)
		parts.push(sql`select ${visitorHourly.visitorHash} as h, ${visitorHourly.isReal} as r, ${visitorHourly.isFirstVisit} as f, ${visitorHourly.fromEmail} as e
			from ${visitorHourly} where ${visitorHourly.hour} >= ${instant(rolled.from)} and ${visitorHourly.hour} < ${instant(rolled.to)}`)
	if (raw.length)
		parts.push(sql`select ${visits.visitorHash} as h, ${REAL_VISIT} as r, ${visits.isFirstVisit} as f, ${visits.emailId} is not null as e
			from ${visits} where (${within(visits.visitedAt, raw)}) and not ${visits.isBot}`)
	if (!parts.length) return NO_VISITORS
	const [row] = rowsOf<Record<keyof VisitorCounts, number | string>>(
		await db.execute(sql`
			select count(*)::int as "visitors", count(*) filter (where r)::int as "realUsers", count(*) filter (where f)::int as "firstTimeVisitors",
				count(*) filter (where not f)::int as "returningVisitors", count(*) filter (where e)::int as "emailVisitors"
			from (select bool_or(r) as r, bool_or(f) as f, bool_or(e) as e from (${sql.join(parts, sql` union all `)}) as u group by h) as v`),
	)
	return add(NO_VISITORS, row && Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])))
}

/**
 * Distinct visitors of a window. A visitor's hash lives one ET day, so a window's visitors are the sum of each day's:
 * whole days that are rolled up come from visitor_daily, the partial days at either end are counted here.
 */
export async function visitorCounts(window: Window, doneUntil: Date): Promise<VisitorCounts> {
	const wholeDays: string[] = []
	const partial: Window[] = []
	for (const day of etDaysBetween(window.start, window.end)) {
		const bounds = etDayBounds(day)
		const start = bounds.start > window.start ? bounds.start : window.start
		const end = bounds.end < window.end ? bounds.end : window.end
		if (start.getTime() === bounds.start.getTime() && end.getTime() === bounds.end.getTime() && bounds.end <= doneUntil) wholeDays.push(day)
		else if (start < end) partial.push({ start, end })
	}
	const [whole, ...parts] = await Promise.all([
		wholeDays.length
			? db
					.select({
						visitors: int(sql`sum(${visitorDaily.visitors})`),
						realUsers: int(sql`sum(${visitorDaily.realUsers})`),
						firstTimeVisitors: int(sql`sum(${visitorDaily.firstTimeVisitors})`),
						returningVisitors: int(sql`sum(${visitorDaily.returningVisitors})`),
						emailVisitors: int(sql`sum(${visitorDaily.emailVisitors})`),
					})
					.from(visitorDaily)
					.where(and(gte(visitorDaily.day, wholeDays[0]!), sql`${visitorDaily.day} <= ${wholeDays.at(-1)!}`))
					.then((rows) => rows[0])
			: undefined,
		...partial.map((part) => visitorsOfPartOfDay(part, doneUntil)),
	])
	return parts.reduce(add, add(NO_VISITORS, whole))
}

export type ScanCounts = { scans: number; emergencyScans: number; lastScanAt: Date | null }

/** QR scans of the window, in all or by scanner type or device type. */
export async function scansBy(dimension: 'all' | 'scanner' | 'device', window: Window, doneUntil: Date) {
	const { rolled, raw } = splitWindow(window, doneUntil)
	const rawValue =
		dimension === 'all'
			? sql`''`
			: dimension === 'scanner'
				? sql`coalesce(${qrScans.scannerType}, 'unknown')`
				: sql`coalesce(${qrScans.deviceType}, 'unknown')`
	const [a, b] = await Promise.all([
		rolled
			? db
					.select({
						value: scanHourly.value,
						scans: int(sql`sum(${scanHourly.scans})`),
						emergencyScans: int(sql`sum(${scanHourly.emergencyScans})`),
						lastScanAt: sql`max(${scanHourly.lastScanAt})`.mapWith(toDate),
					})
					.from(scanHourly)
					.where(and(eq(scanHourly.dimension, dimension), gte(scanHourly.hour, rolled.from), lt(scanHourly.hour, rolled.to)))
					.groupBy(scanHourly.value)
			: [],
		raw.length
			? db
					.select({
						value: sql<string>`${rawValue}`,
						scans: int(sql`count(*)`),
						emergencyScans: int(sql`count(*) filter (where ${qrScans.isEmergencyAccess})`),
						lastScanAt: sql`max(${qrScans.scannedAt})`.mapWith(toDate),
					})
					.from(qrScans)
					.where(within(qrScans.scannedAt, raw))
					.groupBy(dimension === 'all' ? sql`()` : rawValue)
			: [],
	])
	const totals = new Map<string, ScanCounts>()
	for (const row of [...a, ...b]) {
		const known = totals.get(row.value) ?? { scans: 0, emergencyScans: 0, lastScanAt: null }
		totals.set(row.value, {
			scans: known.scans + row.scans,
			emergencyScans: known.emergencyScans + row.emergencyScans,
			lastScanAt: later(known.lastScanAt, row.lastScanAt),
		})
	}
	return totals
}

/** Scans per hour of the window (for charts). */
export async function scansPerHour(window: Window, doneUntil: Date) {
	const { rolled, raw } = splitWindow(window, doneUntil)
	const hour = sql`date_trunc('hour', ${qrScans.scannedAt}, 'UTC')`
	const [a, b] = await Promise.all([
		rolled
			? db
					.select({ hour: scanHourly.hour, scans: scanHourly.scans })
					.from(scanHourly)
					.where(and(eq(scanHourly.dimension, 'all'), gte(scanHourly.hour, rolled.from), lt(scanHourly.hour, rolled.to)))
			: [],
		raw.length
			? db
					.select({ hour: sql`${hour}`.mapWith(toDate), scans: int(sql`count(*)`) })
					.from(qrScans)
					.where(within(qrScans.scannedAt, raw))
					.groupBy(hour)
			: [],
	])
	const totals = new Map<number, number>()
	for (const row of [...a, ...b])
		if (row.hour) totals.set(floorHour(row.hour).getTime(), (totals.get(floorHour(row.hour).getTime()) ?? 0) + row.scans)
	return totals
}
