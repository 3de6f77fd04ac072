import { randomBytes, randomUUID } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import {
	analyticsSalts,
	emails,
	orders,
	qrScans,
	rollupState,
	scanHourly,
	users,
	visitHourly,
	visitorDaily,
	visitorHourly,
	visits,
} from '#db/schema.ts'
import { TIME_RANGES } from '#app/domain/admin/time-range.ts'
import { pruneExpired } from '#app/domain/housekeeping/prune.server.ts'
import { parseCsv } from '#tests/csv.ts'
import { createCode, uniqueEmail } from '#tests/factories.ts'
import {
	analyticsCsvLines,
	analyticsOverview,
	filteredAnalytics,
	scanAnalytics,
	SCANS_CSV_COLUMNS,
	scansCsvLines,
	trafficAnalysis,
} from './analytics.server.ts'
import { flushVisits, recordPageView } from './collect.server.ts'
import { etDay, etDayBounds, etDaysBetween } from './et-time.ts'
import { FILTER_HOURS } from './params.ts'
import { rebuildHours, rollUpAll } from './rollup.server.ts'

const HOUR = 3_600_000
const at = (iso: string) => new Date(iso)

type VisitRow = typeof visits.$inferInsert
type ScanRow = typeof qrScans.$inferInsert

async function insertVisits(rows: Array<Partial<VisitRow> & { visitedAt: Date }>) {
	const values = rows.map((row) => ({
		path: '/',
		visitorHash: 1n,
		isFirstVisit: false,
		browser: 'Chrome',
		deviceType: 'desktop',
		...row,
	}))
	for (let i = 0; i < values.length; i += 1000) await db.insert(visits).values(values.slice(i, i + 1000))
}

async function insertScans(rows: ScanRow[]) {
	for (let i = 0; i < rows.length; i += 1000) await db.insert(qrScans).values(rows.slice(i, i + 1000))
}

async function insertUsers(rows: Array<Partial<typeof users.$inferInsert> & { createdAt: Date }>) {
	await db.insert(users).values(rows.map((row) => ({ id: randomUUID(), email: uniqueEmail('analytics'), ...row })))
}

async function clearRollups() {
	for (const table of [visitHourly, visitorHourly, scanHourly, visitorDaily, rollupState]) await db.delete(table)
}

// Every test starts from no page views, no scans and nothing rolled up: its counts are of its own rows only.
beforeEach(async () => {
	await flushVisits()
	await db.delete(visits)
	await db.delete(qrScans)
	await clearRollups()
})
// The next file in this worker finds no rollup mark of ours in the past (its older rows would read as rolled up).
afterAll(clearRollups)

/** Runs the checks on the raw rows alone, then again once every closed hour is rolled up. */
async function rawThenRolled(now: Date, check: () => Promise<void>) {
	await check()
	expect(await rollUpAll(now)).toBeGreaterThan(0)
	await check()
}

describe('real users and people', () => {
	test('bots are left out everywhere; the owner and excluded addresses are traffic but not real users', async () => {
		const now = at('2026-10-10T20:00:00Z')
		await insertVisits([
			{ visitedAt: at('2026-10-10T13:10:00Z'), visitorHash: 11n },
			{ visitedAt: at('2026-10-10T15:20:00Z'), visitorHash: 11n, path: '/shop' },
			{ visitedAt: at('2026-10-10T14:05:00Z'), visitorHash: 12n, deviceType: 'mobile', browser: 'Safari' },
			{ visitedAt: at('2026-10-10T16:00:00Z'), visitorHash: 13n, isBot: true },
			{ visitedAt: at('2026-10-10T16:10:00Z'), visitorHash: 13n, isBot: true, path: '/robots' },
			{ visitedAt: at('2026-10-10T18:30:00Z'), visitorHash: 16n, isBot: true, isOwner: true },
			{ visitedAt: at('2026-10-10T17:00:00Z'), visitorHash: 14n, isOwner: true, browser: 'Firefox' },
			{ visitedAt: at('2026-10-10T18:00:00Z'), visitorHash: 15n, isExcluded: true },
			{ visitedAt: at('2026-10-10T19:00:00Z'), visitorHash: 17n, isOwner: true, isExcluded: true },
			// A second before the 24 hours.
			{ visitedAt: at('2026-10-09T19:59:59Z'), visitorHash: 18n },
		])
		await rawThenRolled(now, async () => {
			const overview = await analyticsOverview('24hours', now)
			expect({ visits: overview.totalVisits, users: overview.realUsers, last: overview.lastVisit }).toEqual({
				visits: 3,
				users: 2,
				last: '2026-10-10T15:20:00.000Z',
			})

			const filtered = await filteredAnalytics(24, now)
			expect(filtered).toMatchObject({
				realUserVisits: 3,
				realUsers: 2,
				excluded: { bots: 3, owner: 2, addresses: 1 },
				summary: {
					description:
						"3 visits by 2 real users in the last 24 hours. Left out: 3 from bots, 2 of the owner's own, 1 from excluded addresses.",
				},
			})
			expect(filtered.hourlyBreakdown).toHaveLength(24)
			expect(filtered.hourlyBreakdown.reduce((sum, slot) => sum + slot.visit_count, 0)).toBe(3)
			expect(filtered.hourlyBreakdown.find((slot) => slot.hour === '2026-10-10T13:00:00.000Z')).toEqual({
				hour: '2026-10-10T13:00:00.000Z',
				visit_count: 1,
				users: 1,
			})

			const six = await filteredAnalytics(6, now)
			expect(six).toMatchObject({ realUserVisits: 2, realUsers: 2, excluded: { bots: 3, owner: 2, addresses: 1 } })
			const quiet = await filteredAnalytics(6, at('2026-10-10T15:25:00Z'))
			expect(quiet.summary.description).toBe('3 visits by 2 real users in the last 6 hours. Nothing was left out.')

			const traffic = await trafficAnalysis('2026-10-10', now)
			expect(traffic).toMatchObject({ totalVisits: 6, uniqueVisitors: 5, firstTimeVisitors: 0, returningVisitors: 5 })
			expect(traffic.hourlyBreakdown).toHaveLength(16)
			expect(traffic.hourlyBreakdown.reduce((sum, slot) => sum + slot.visits, 0)).toBe(6)
			expect(traffic.topPages).toEqual([
				{ path: '/', visits: 5 },
				{ path: '/shop', visits: 1 },
			])
			expect(traffic.browserStats).toEqual([
				{ browser: 'Chrome', visits: 4 },
				{ browser: 'Firefox', visits: 1 },
				{ browser: 'Safari', visits: 1 },
			])
			expect(traffic.deviceStats).toEqual([
				{ device: 'desktop', visits: 5 },
				{ device: 'mobile', visits: 1 },
			])
		})
	})
})

describe('visitors of a day', () => {
	test('first-time or returning per visitor and ET day; signups from a first visit are that day’s accounts made on it', async () => {
		await insertVisits([
			{ visitedAt: at('2026-10-14T10:00:00Z'), visitorHash: 21n, isFirstVisit: true },
			{ visitedAt: at('2026-10-14T10:30:00Z'), visitorHash: 21n, isFirstVisit: false },
			{ visitedAt: at('2026-10-14T11:00:00Z'), visitorHash: 22n },
			{ visitedAt: at('2026-10-14T11:30:00Z'), visitorHash: 22n },
			{ visitedAt: at('2026-10-14T13:00:00Z'), visitorHash: 23n, isFirstVisit: true, isOwner: true },
			{ visitedAt: at('2026-10-14T14:00:00Z'), visitorHash: 24n, isFirstVisit: true, isBot: true },
			{ visitedAt: at('2026-10-15T03:59:59.999Z'), visitorHash: 25n },
			{ visitedAt: at('2026-10-15T04:00:00Z'), visitorHash: 26n, isFirstVisit: true },
			{ visitedAt: at('2026-10-15T05:00:00Z'), visitorHash: 21n },
		])
		await insertUsers([
			{ createdAt: at('2026-10-14T12:00:00Z'), firstVisitOn: '2026-10-14' },
			{ createdAt: at('2026-10-14T13:00:00Z'), firstVisitOn: '2026-10-01' },
			{ createdAt: at('2026-10-14T14:00:00Z'), firstVisitOn: null },
			{ createdAt: at('2026-10-15T03:30:00Z'), firstVisitOn: '2026-10-14' },
			{ createdAt: at('2026-10-14T03:30:00Z'), firstVisitOn: '2026-10-13' },
		])
		const now = at('2026-10-16T12:00:00Z')
		await rawThenRolled(now, async () => {
			expect(await trafficAnalysis('2026-10-14', now)).toMatchObject({
				totalVisits: 6,
				uniqueVisitors: 4,
				firstTimeVisitors: 2,
				returningVisitors: 2,
				signups: 4,
				signupsFromFirstVisit: 2,
			})
			expect(await trafficAnalysis('2026-10-15', now)).toMatchObject({
				totalVisits: 2,
				uniqueVisitors: 2,
				firstTimeVisitors: 1,
				returningVisitors: 1,
				signups: 0,
				signupsFromFirstVisit: 0,
			})
			// The 24 hours ending at midnight ET are that day: the owner is no real user. Four accounts were made, but no
			// real user was seen signed in to one: the rate is of real users who signed up, none here.
			const day = await analyticsOverview('24hours', at('2026-10-15T04:00:00Z'))
			expect({
				users: day.realUsers,
				visits: day.totalVisits,
				signups: day.totalSignups,
				signedUp: day.realUsersWhoSignedUp,
				rate: day.signupRate,
			}).toEqual({ users: 3, visits: 5, signups: 4, signedUp: 0, rate: 0 })
			// Two days: the same hash on two days is two visitors (its salt was each day's).
			expect((await analyticsOverview('7days', now)).realUsers).toBe(5)
		})
	})
})

describe('ET days and hours', () => {
	test('midnight in New York splits the days, winter and summer', async () => {
		await insertVisits([
			{ visitedAt: at('2026-01-15T04:59:59.999Z'), visitorHash: 31n },
			{ visitedAt: at('2026-01-15T05:00:00Z'), visitorHash: 32n },
			{ visitedAt: at('2026-07-04T03:59:59.999Z'), visitorHash: 33n },
			{ visitedAt: at('2026-07-04T04:00:00Z'), visitorHash: 34n },
		])
		const now = at('2026-07-10T00:00:00Z')
		await rawThenRolled(now, async () => {
			for (const [before, after] of [
				['2026-01-14', '2026-01-15'],
				['2026-07-03', '2026-07-04'],
			] as const) {
				const [a, b] = [await trafficAnalysis(before, now), await trafficAnalysis(after, now)]
				expect([a.totalVisits, b.totalVisits]).toEqual([1, 1])
				expect(a.hourlyBreakdown.at(-1)).toMatchObject({ hour: 23, visits: 1, uniqueVisitors: 1 })
				expect(b.hourlyBreakdown[0]).toMatchObject({ hour: 0, visits: 1, uniqueVisitors: 1 })
				expect(a.hourlyBreakdown).toHaveLength(24)
			}
		})
	})

	test('the day clocks go back has 25 hours (1 AM twice); the day they go forward 23', async () => {
		await insertVisits([
			{ visitedAt: at('2026-11-01T05:30:00Z'), visitorHash: 35n },
			{ visitedAt: at('2026-11-01T06:30:00Z'), visitorHash: 36n },
			{ visitedAt: at('2026-11-01T06:45:00Z'), visitorHash: 36n },
		])
		const now = at('2026-11-03T00:00:00Z')
		await rawThenRolled(now, async () => {
			const fall = await trafficAnalysis('2026-11-01', now)
			expect(fall.hourlyBreakdown).toHaveLength(25)
			expect(fall.hourlyBreakdown.map((slot) => slot.hour)).toEqual([0, 1, 1, ...Array.from({ length: 22 }, (_, i) => i + 2)])
			expect(fall.hourlyBreakdown[0]!.startsAt).toBe('2026-11-01T04:00:00.000Z')
			expect(fall.hourlyBreakdown.at(-1)!.startsAt).toBe('2026-11-02T04:00:00.000Z')
			expect(fall.hourlyBreakdown.slice(1, 3).map((slot) => [slot.visits, slot.uniqueVisitors])).toEqual([
				[1, 1],
				[2, 1],
			])
			expect(fall).toMatchObject({ totalVisits: 3, uniqueVisitors: 2 })
			expect(fall.insights[0]).toBe('The busiest hour was 1 AM ET with 2 visits.')
		})
		const spring = await trafficAnalysis('2026-03-08', now)
		expect(spring.hourlyBreakdown.map((slot) => slot.hour)).toEqual([0, 1, ...Array.from({ length: 21 }, (_, i) => i + 3)])
	})

	test('a rolling window includes its first instant and not the one before', async () => {
		const now = at('2026-10-20T12:34:56.789Z')
		await insertVisits([
			{ visitedAt: new Date(now.getTime() - 24 * HOUR), visitorHash: 41n },
			{ visitedAt: new Date(now.getTime() - 24 * HOUR - 1), visitorHash: 42n },
		])
		await rawThenRolled(now, async () => {
			expect(await analyticsOverview('24hours', now)).toMatchObject({ totalVisits: 1, realUsers: 1 })
			expect(await analyticsOverview('7days', now)).toMatchObject({ totalVisits: 2, realUsers: 2 })
			const filtered = await filteredAnalytics(24, now)
			expect(filtered).toMatchObject({ realUserVisits: 1, realUsers: 1 })
			expect(filtered.hourlyBreakdown).toHaveLength(25)
			expect(filtered.hourlyBreakdown[0]).toEqual({ hour: '2026-10-19T12:00:00.000Z', visit_count: 1, users: 1 })
		})
	})
})

// ---------------------------------------------------------------------------------------------------------------
// The key property: whatever is rolled up, every figure equals a recount from the raw rows.

function random(seed: number) {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
	}
}

const START = at('2026-10-26T00:00:00Z')
const END = at('2026-11-05T00:00:00Z')
const NOW = at('2026-11-05T02:17:33.456Z')
const HALF_WAY = at('2026-10-31T09:41:07Z')
const TRAFFIC_DAYS = ['2026-10-25', '2026-10-28', '2026-10-31', '2026-11-01', '2026-11-02', '2026-11-04', '2026-11-05']

async function generate() {
	const next = random(20261101)
	const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
	const trackingIds = [randomBytes(16).toString('base64url'), randomBytes(16).toString('base64url')]
	const sent = await db
		.insert(emails)
		.values(
			trackingIds.map((trackingId) => ({
				toAddress: uniqueEmail('rollup'),
				emailType: 'order-confirmation',
				subject: 'Hi',
				textBody: 'Hi',
				trackingId,
			})),
		)
		.returning({ id: emails.id })
	const span = END.getTime() - START.getTime()
	const rows: Array<VisitRow & { visitedAt: Date }> = []
	for (let i = 0; i < 3000; i++) {
		let time = START.getTime() + Math.floor(next() * span)
		if (i % 15 === 0) time -= time % HOUR // on the hour
		if (i % 97 === 0) time = etDayBounds(etDay(new Date(time))).start.getTime() // midnight ET
		const visitedAt = new Date(time)
		const dayNumber = BigInt(Date.parse(`${etDay(visitedAt)}T00:00:00Z`) / 86_400_000)
		rows.push({
			visitedAt,
			visitorHash: (next() < 0.5 ? -1n : 1n) * (dayNumber * 1000n + BigInt(Math.floor(next() * 120))),
			path: pick(['/', '/dashboard', '/shop', '/claim/:token', '/admin/orders/:id', '/giving']),
			isFirstVisit: next() < 0.4,
			browser: pick(['Chrome', 'Safari', 'Firefox', 'Edge', null]),
			deviceType: pick(['mobile', 'desktop', 'tablet', null]),
			referrerHost: pick([null, null, null, 'www.google.com', 't.co', 'duckduckgo.com']),
			emailId: next() < 0.05 ? pick(sent).id : null,
			isBot: next() < 0.1,
			isOwner: next() < 0.06,
			isExcluded: next() < 0.06,
		})
	}
	await insertVisits(rows)

	const codes = [await createCode(), await createCode(), await createCode()]
	const scanFrom = START.getTime() - 34 * 24 * HOUR
	const scans: Array<ScanRow & { scannedAt: Date }> = []
	for (let i = 0; i < 2300; i++) {
		let time = scanFrom + Math.floor(next() * (END.getTime() - scanFrom))
		if (i % 20 === 0) time -= time % HOUR
		scans.push({
			qrCodeId: pick(codes).id,
			scannedAt: new Date(time),
			scannerType: pick(['camera', 'app', 'nfc', null]),
			deviceType: pick(['mobile', 'desktop', 'tablet', null]),
			isEmergencyAccess: next() < 0.7,
			city: pick(['Springfield', 'Boston', null]),
		})
	}
	await insertScans(scans)

	await insertUsers(
		Array.from({ length: 40 }, () => {
			const createdAt = new Date(START.getTime() + Math.floor(next() * span))
			return {
				createdAt,
				firstVisitOn: pick([etDay(createdAt), '2026-10-01', null]),
				passwordHash: next() < 0.5 ? 'x' : null,
			}
		}),
	)
	return { visits: rows, scans }
}

async function snapshot() {
	const overview = []
	for (const range of TIME_RANGES) overview.push(await analyticsOverview(range, NOW))
	const filtered = []
	for (const hours of FILTER_HOURS) filtered.push(await filteredAnalytics(hours, NOW))
	const traffic = []
	for (const day of TRAFFIC_DAYS) traffic.push(await trafficAnalysis(day, NOW))
	return { overview, filtered, traffic, scans: await scanAnalytics(NOW) }
}

async function rollupTables() {
	return {
		visitHourly: await db.select().from(visitHourly).orderBy(visitHourly.hour, visitHourly.dimension, visitHourly.value),
		visitorHourly: await db.select().from(visitorHourly).orderBy(visitorHourly.hour, visitorHourly.visitorHash),
		scanHourly: await db.select().from(scanHourly).orderBy(scanHourly.hour, scanHourly.dimension, scanHourly.value),
		visitorDaily: await db.select().from(visitorDaily).orderBy(visitorDaily.day),
		state: await db.select().from(rollupState),
	}
}

type Generated = Awaited<ReturnType<typeof generate>>

/** The same figures counted here in JavaScript, from the rows as generated. */
function recount({ visits: rows, scans }: Generated, start: Date, end: Date) {
	const inside = rows.filter((row) => row.visitedAt >= start && row.visitedAt < end)
	const real = inside.filter((row) => !row.isBot && !row.isOwner && !row.isExcluded)
	const people = inside.filter((row) => !row.isBot)
	const visitors = new Map<string, boolean>()
	for (const row of people) {
		const key = `${etDay(row.visitedAt)} ${row.visitorHash}`
		visitors.set(key, (visitors.get(key) ?? false) || row.isFirstVisit!)
	}
	return {
		realVisits: real.length,
		realUsers: new Set(real.map((row) => `${etDay(row.visitedAt)} ${row.visitorHash}`)).size,
		bots: inside.filter((row) => row.isBot).length,
		owner: people.filter((row) => row.isOwner).length,
		addresses: people.filter((row) => !row.isOwner && row.isExcluded).length,
		people: people.length,
		visitors: visitors.size,
		firstTime: [...visitors.values()].filter(Boolean).length,
		scans: scans.filter((scan) => scan.scannedAt >= start && scan.scannedAt < end).length,
	}
}

describe('rollups', () => {
	test('every figure is the same with nothing, everything or half rolled up, and equals a recount', { timeout: 60_000 }, async () => {
		const generated = await generate()

		const raw = await snapshot()
		for (const [i, range] of TIME_RANGES.entries()) {
			const expected = recount(
				generated,
				new Date(NOW.getTime() - { '24hours': 24, '7days': 168, '30days': 720, '90days': 2160 }[range] * HOUR),
				NOW,
			)
			expect([range, raw.overview[i]!.totalVisits, raw.overview[i]!.realUsers, raw.overview[i]!.totalQrAccessed]).toEqual([
				range,
				expected.realVisits,
				expected.realUsers,
				expected.scans,
			])
		}
		for (const [i, hours] of FILTER_HOURS.entries()) {
			const expected = recount(generated, new Date(NOW.getTime() - hours * HOUR), NOW)
			expect(raw.filtered[i]).toMatchObject({
				realUserVisits: expected.realVisits,
				realUsers: expected.realUsers,
				excluded: { bots: expected.bots, owner: expected.owner, addresses: expected.addresses },
			})
		}
		for (const [i, day] of TRAFFIC_DAYS.entries()) {
			const { start, end } = etDayBounds(day)
			const expected = recount(generated, start, end < NOW ? end : NOW)
			expect(raw.traffic[i]).toMatchObject({
				date: day,
				totalVisits: expected.people,
				uniqueVisitors: expected.visitors,
				firstTimeVisitors: expected.firstTime,
				returningVisitors: expected.visitors - expected.firstTime,
			})
			expect(raw.traffic[i]!.hourlyBreakdown.reduce((sum, slot) => sum + slot.visits, 0)).toBe(expected.people)
		}
		expect(raw.traffic[3]!.hourlyBreakdown).toHaveLength(25)
		expect(raw.scans.totalScans).toBe(generated.scans.length)
		expect(raw.scans.emergencyScans).toBe(generated.scans.filter((scan) => scan.isEmergencyAccess).length)
		const last30 = etDayBounds(etDay(new Date(NOW.getTime() - 29 * 24 * HOUR))).start
		expect(raw.scans.scansPerDay.reduce((sum, day) => sum + day.scans, 0)).toBe(recount(generated, last30, NOW).scans)
		expect(raw.overview[1]!.totalVisits).toBeGreaterThan(1000)

		// Everything rolled up.
		expect(await rollUpAll(NOW)).toBeGreaterThan(24 * 30)
		expect(await snapshot()).toEqual(raw)
		const allAtOnce = await rollupTables()
		expect(allAtOnce.state[0]!.doneUntil).toEqual(at('2026-11-05T02:00:00Z'))

		// Half rolled up, the rest read raw.
		await clearRollups()
		await rollUpAll(HALF_WAY)
		expect((await rollupTables()).state[0]!.doneUntil).toEqual(at('2026-10-31T09:00:00Z'))
		expect(await snapshot()).toEqual(raw)

		// The rest rolled up later: the same rows as in one go; and a run with nothing new changes nothing.
		await rollUpAll(NOW)
		expect(await rollupTables()).toEqual(allAtOnce)
		expect(await rollUpAll(NOW)).toBe(0)
		expect(await rollupTables()).toEqual(allAtOnce)
		// Rebuilding hours already done gives the same rows.
		const firstHour = allAtOnce.scanHourly[0]!.hour
		await db.transaction((tx) => rebuildHours(tx, firstHour, at('2026-11-05T02:00:00Z')))
		expect(await rollupTables()).toEqual(allAtOnce)
		expect(await snapshot()).toEqual(raw)
	})

	test('page views written late (after a database outage) reopen the hours they belong to, and are counted', async () => {
		const now = new Date()
		await insertVisits([{ visitedAt: new Date(now.getTime() - 5 * HOUR), path: '/early' }])
		await rollUpAll(now)
		const before = await analyticsOverview('24hours', now)
		const late = new Date(now.getTime() - 3 * HOUR)
		await recordPageView({
			path: '/late',
			userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
			acceptLanguage: 'en',
			address: '198.51.100.77',
			referrer: null,
			seenCookie: null,
			userId: null,
			isOwner: false,
			emailTrackingId: null,
			ownHosts: [],
			at: late,
		})
		await flushVisits()
		expect((await db.select().from(rollupState))[0]!.doneUntil.getTime()).toBeLessThanOrEqual(late.getTime())
		expect((await analyticsOverview('24hours', now)).totalVisits).toBe(before.totalVisits + 1)
		await rollUpAll(now)
		expect((await analyticsOverview('24hours', now)).totalVisits).toBe(before.totalVisits + 1)
	})
})

// ---------------------------------------------------------------------------------------------------------------

describe('scanAnalytics', () => {
	test('scanner and device types, emergency scans, the ten newest first, scans per ET day', async () => {
		const code = await createCode()
		const now = at('2026-10-22T12:00:00Z')
		const scan = (iso: string, scannerType: string | null, deviceType: string | null, isEmergencyAccess: boolean) => ({
			qrCodeId: code.id,
			scannedAt: at(iso),
			scannerType,
			deviceType,
			isEmergencyAccess,
		})
		await insertScans([
			scan('2026-10-21T10:00:00Z', 'camera', 'mobile', true),
			scan('2026-10-20T10:00:00Z', 'camera', 'mobile', true),
			scan('2026-10-22T11:59:59Z', 'camera', 'desktop', false),
			scan('2026-10-19T03:59:59Z', 'app', null, true),
			scan('2026-10-19T04:00:00Z', null, null, false),
			...Array.from({ length: 7 }, (_, i) => scan(`2026-10-1${i}T12:00:00Z`, 'nfc', 'tablet', false)),
			scan('2026-10-18T08:00:00Z', 'nfc', 'tablet', false),
			scan('2026-09-10T12:00:00Z', 'camera', 'mobile', false),
		])
		const ids = await db.select({ id: qrScans.id, scannedAt: qrScans.scannedAt }).from(qrScans)
		const newest = ids
			.sort((a, b) => b.scannedAt.getTime() - a.scannedAt.getTime() || b.id - a.id)
			.slice(0, 10)
			.map((row) => row.id)
		await rawThenRolled(now, async () => {
			const result = await scanAnalytics(now)
			expect(result).toMatchObject({
				totalScans: 14,
				emergencyScans: 3,
				lastScanAt: '2026-10-22T11:59:59.000Z',
				scannerTypes: { camera: 4, nfc: 8, app: 1, unknown: 1 },
				deviceTypes: { mobile: 3, desktop: 1, tablet: 8, unknown: 2 },
			})
			expect(Object.keys(result.scannerTypes).slice(0, 2)).toEqual(['nfc', 'camera'])
			expect(result.recentScans.map((row) => row.id)).toEqual(newest)
			expect(result.recentScans[0]).toMatchObject({
				scannerType: 'camera',
				scannedAt: '2026-10-22T11:59:59.000Z',
				isEmergencyAccess: false,
			})
			expect(result.scansPerDay).toHaveLength(30)
			expect(result.scansPerDay.at(-1)).toEqual({ date: '2026-10-22', scans: 1 })
			expect(result.scansPerDay.find((day) => day.date === '2026-10-18')).toEqual({ date: '2026-10-18', scans: 2 })
			expect(result.scansPerDay.find((day) => day.date === '2026-10-19')).toEqual({ date: '2026-10-19', scans: 1 })
			expect(result.scansPerDay.reduce((sum, day) => sum + day.scans, 0)).toBe(13)
		})
	})

	test('with no scans at all: zeros, and every device type named', async () => {
		const result = await scanAnalytics(at('2026-10-22T12:00:00Z'))
		expect(result).toMatchObject({ totalScans: 0, emergencyScans: 0, lastScanAt: null, scannerTypes: {}, recentScans: [] })
		expect(result.deviceTypes).toEqual({ mobile: 0, desktop: 0, tablet: 0 })
	})
})

async function collect(lines: AsyncIterable<string>) {
	let text = ''
	for await (const line of lines) text += line
	return text
}

const FORMULA = /^[=+\-@\t\r]/

describe('CSV exports', () => {
	test('scans: a header, every scan once (newest first, 2,000 at a time), formulas neutralised', async () => {
		const code = await createCode()
		const base = at('2026-10-01T00:00:00Z').getTime()
		await insertScans(
			Array.from({ length: 2100 }, (_, i) => ({ qrCodeId: code.id, scannedAt: new Date(base + i * 60_000), scannerType: 'camera' })),
		)
		const [hostile] = await db
			.insert(qrScans)
			.values({
				qrCodeId: code.id,
				scannedAt: at('2026-09-01T00:00:00Z'),
				city: '=HYPERLINK("http://evil.example","click")',
				state: '+1',
				country: '@x',
				medicalFacility: '-2+3',
				scannerType: '\tcamera',
				viewDurationSeconds: 12,
			})
			.returning()
		const before = (await db.select({ id: qrScans.id }).from(qrScans)).map((row) => row.id).sort((a, b) => b - a)

		let text = ''
		let lines = 0
		for await (const line of scansCsvLines()) {
			text += line
			// A scan recorded while the export runs neither shifts nor repeats one.
			if (++lines === 1000) await db.insert(qrScans).values({ qrCodeId: code.id, scannerType: 'late' })
		}
		const [header, ...rows] = parseCsv(text)
		expect(header).toEqual([...SCANS_CSV_COLUMNS])
		expect(rows.map((row) => Number(row[0]))).toEqual(before)
		const cells = rows.find((row) => Number(row[0]) === hostile!.id)!
		expect(cells).toEqual([
			String(hostile!.id),
			'2026-09-01T00:00:00.000Z',
			String(code.id),
			"'\tcamera",
			'true',
			'',
			`'=HYPERLINK("http://evil.example","click")`,
			"'+1",
			"'@x",
			"'-2+3",
			'12',
		])
		for (const row of rows) for (const cell of row) expect(cell).not.toMatch(FORMULA)
	})

	test('analytics: the range’s figures, its days, the recent activity; no cell runs as a formula', async () => {
		const now = new Date()
		const firstName = '=HYPERLINK("http://evil.example","click")'
		await insertUsers([{ createdAt: new Date(now.getTime() - 1000), firstName, lastName: '+1' }])
		await db.insert(orders).values({
			id: randomUUID(),
			confirmationNumber: `HMH-${randomBytes(4).toString('hex')}`,
			customerName: '@SUM(A1:A9)',
			customerEmail: uniqueEmail('csv'),
			subtotalCents: 1500,
			totalCents: 1500,
			createdAt: new Date(now.getTime() - 500),
		})
		const overview = await analyticsOverview('7days', now)
		const rows = parseCsv(await collect(analyticsCsvLines('7days', now)))

		expect(rows[0]).toEqual(['metric', 'value'])
		expect(rows).toContainEqual(['timeRange', '7days'])
		expect(rows).toContainEqual(['platformUsers', String(overview.totalUsers)])
		expect(rows).toContainEqual(['totalRevenue', overview.totalRevenue.toFixed(2)])
		const growthHeader = rows.findIndex((row) => row.join() === 'date,newUsers,totalUsers')
		const activityHeader = rows.findIndex((row) => row.join() === 'type,description,timestamp,amount')
		expect(rows[growthHeader - 1]).toEqual([''])
		expect(rows.slice(growthHeader + 1, activityHeader - 1)).toHaveLength(etDaysBetween(new Date(now.getTime() - 168 * HOUR), now).length)
		const activity = rows.slice(activityHeader + 1)
		expect(activity.length).toBeGreaterThanOrEqual(2)
		expect(activity).toContainEqual(expect.arrayContaining([`New account: ${firstName} +1`]))
		// A free order (its list total $15): nothing was received.
		expect(activity).toContainEqual(expect.arrayContaining(['order', '0']))
		expect(activity.find((row) => row[0] === 'order')![1]).toMatch(/^Order HMH-[0-9a-f]{8} from @SUM\(A1:A9\)$/)
		for (const row of rows) for (const cell of row) expect(cell).not.toMatch(FORMULA)
	})
})

describe('pruning', () => {
	test('salts and visit addresses older than 48 hours go; newer ones stay', async () => {
		const days = ['2019-03-01', '2019-03-02']
		const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR)
		await db.insert(analyticsSalts).values([
			{ day: days[0]!, salt: randomBytes(16), createdAt: hoursAgo(48.1) },
			{ day: days[1]!, salt: randomBytes(16), createdAt: hoursAgo(47.9) },
		])
		await insertVisits([
			{ visitedAt: hoursAgo(48.1), ipAddress: '192.0.2.1', visitorHash: 51n },
			{ visitedAt: hoursAgo(47.9), ipAddress: '192.0.2.2', visitorHash: 52n },
		])
		try {
			const pruned = await pruneExpired()
			expect(pruned.salts).toBeGreaterThanOrEqual(1)
			expect(pruned.visitAddresses).toBe(1)
			expect((await db.select().from(analyticsSalts).where(inArray(analyticsSalts.day, days))).map((row) => row.day)).toEqual([days[1]])
			const left = await db.select({ hash: visits.visitorHash, ip: visits.ipAddress }).from(visits).orderBy(visits.visitorHash)
			expect(left).toEqual([
				{ hash: 51n, ip: null },
				{ hash: 52n, ip: '192.0.2.2' },
			])
		} finally {
			await db.delete(analyticsSalts).where(eq(analyticsSalts.day, days[1]!))
		}
	})
})
