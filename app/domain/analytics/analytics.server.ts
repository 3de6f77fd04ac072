import { and, desc, lt, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { db, instant, rowsOf } from '#db/client.ts'
import { donations, orders, qrCodes, qrDownloads, qrScans, users, visits } from '#db/schema.ts'
import { timeRangeStart, type TimeRange } from '#app/domain/admin/time-range.ts'
import { csvLine } from '#app/utils/csv.ts'
import { etDay, etDayBounds, etDaysBetween, etHour } from './et-time.ts'
import { emailMessageStats } from './email-tracking.server.ts'
import {
	CONFIRMED_GIFT,
	COUNTED_ORDER,
	GIFT_RECEIVED,
	GIFT_TIME,
	moneyReceived,
	ORDER_RECEIVED,
	percent,
	realUsersWho,
	receivedCents,
} from './figures.server.ts'
import type { FilterHours } from './params.ts'
import { rolledUpUntil } from './rollup.server.ts'
import { hourlyCounts, lastRealVisit, scansBy, scansPerHour, visitCounts, visitorCounts, visitsBy, type Window } from './windows.server.ts'

const ZONE = 'America/New_York'
const dollars = (cents: number) => Math.round(cents) / 100
const int = (expression: ReturnType<typeof sql>) => sql<number>`coalesce(${expression}, 0)::bigint`.mapWith(Number)
const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

const inRange = (column: AnyPgColumn | SQL, { start, end }: Window) => sql`(${column} >= ${instant(start)} and ${column} < ${instant(end)})`

export type RecentActivity = { type: 'signup' | 'order' | 'donation'; description: string; timestamp: string; amount: number | null }

/** Spec 002 §3 "Analytics" for the header's time range, with the figures its stat cards also show. */
export async function analyticsOverview(range: TimeRange, now = new Date()) {
	const window = { start: timeRangeStart(range, now), end: now }
	const doneUntil = await rolledUpUntil()
	const [
		visitsInRange,
		visitors,
		lastVisit,
		people,
		shop,
		money,
		converted,
		codes,
		downloads,
		scans,
		growth,
		recentActivity,
		recentOrders,
		donationData,
	] = await Promise.all([
		visitCounts(window, doneUntil),
		visitorCounts(window, doneUntil),
		lastRealVisit(doneUntil),
		Promise.all([
			db.select({ count: int(sql`count(*)`) }).from(users),
			db
				.select({
					signups: int(sql`count(*)`),
					emailSignups: int(sql`count(*) filter (where ${users.passwordHash} is not null)`),
				})
				.from(users)
				.where(inRange(users.createdAt, window)),
		]).then(([[all], [recent]]) => ({
			totalUsers: all?.count ?? 0,
			signups: recent?.signups ?? 0,
			emailSignups: recent?.emailSignups ?? 0,
		})),
		db
			.select({ orders: int(sql`count(*)`) })
			.from(orders)
			.where(and(inRange(orders.createdAt, window), COUNTED_ORDER)),
		moneyReceived(window),
		realUsersWho(window),
		db
			.select({ created: int(sql`count(*)`) })
			.from(qrCodes)
			.where(
				sql`(${qrCodes.source} <> 'batch' and ${qrCodes.createdAt} >= ${instant(window.start)} and ${qrCodes.createdAt} < ${instant(window.end)})
						or (${qrCodes.claimedAt} >= ${instant(window.start)} and ${qrCodes.claimedAt} < ${instant(window.end)})`,
			),
		db
			.select({ downloads: int(sql`count(*)`) })
			.from(qrDownloads)
			.where(inRange(qrDownloads.downloadedAt, window)),
		scansBy('all', window, doneUntil),
		newUsersPerDay(window),
		recentActivityList(),
		db
			.select({
				orderId: orders.id,
				orderNumber: orders.confirmationNumber,
				customerName: orders.customerName,
				customerEmail: orders.customerEmail,
				totalCents: orders.totalCents,
				chargedCents: orders.chargedCents,
				refundedCents: orders.refundedCents,
				fulfillmentStatus: orders.fulfillmentStatus,
				createdAt: orders.createdAt,
			})
			.from(orders)
			.orderBy(desc(orders.createdAt))
			.limit(5),
		db
			.select({
				donorEmail: donations.donorEmail,
				amountCents: donations.amountCents,
				chargedCents: donations.chargedCents,
				refundedCents: donations.refundedCents,
				tier: donations.tier,
				createdAt: donations.createdAt,
			})
			.from(donations)
			.where(and(CONFIRMED_GIFT, inRange(GIFT_TIME, window)))
			.orderBy(desc(GIFT_TIME), desc(donations.id))
			.limit(50),
	])
	const signups = people.signups
	const totalOrders = shop[0]?.orders ?? 0
	const scanTotals = scans.get('') ?? { scans: 0, emergencyScans: 0 }
	return {
		timeRange: range,
		totalUsers: people.totalUsers,
		totalVisits: visitsInRange.realVisits,
		realUsers: visitors.realUsers,
		lastVisit: iso(lastVisit),
		totalRevenue: dollars(money.total.receivedCents),
		shopRevenue: dollars(money.shop.receivedCents),
		donationRevenue: dollars(money.donations.receivedCents),
		totalSignups: signups,
		emailSignups: people.emailSignups,
		realUsersWhoSignedUp: converted.signedUp,
		signupRate: percent(converted.signedUp, visitors.realUsers),
		totalOrders,
		realUsersWhoOrdered: converted.ordered,
		orderConversionRate: percent(converted.ordered, visitors.realUsers),
		totalQrCreated: codes[0]?.created ?? 0,
		totalQrDownloaded: downloads[0]?.downloads ?? 0,
		totalQrAccessed: scanTotals.scans,
		emergencyAccess: scanTotals.emergencyScans,
		userGrowth: userGrowth(window, growth, people.totalUsers - signups),
		recentActivity,
		recentOrders: recentOrders.map((order) => ({
			orderId: order.orderId,
			orderNumber: order.orderNumber,
			customerName: order.customerName,
			customerEmail: order.customerEmail,
			amount: dollars(order.totalCents),
			received: dollars(receivedCents(order)),
			fulfillmentStatus: order.fulfillmentStatus,
			createdAt: iso(order.createdAt),
		})),
		donationData: donationData.map((gift) => ({
			donorEmail: gift.donorEmail,
			amount: dollars(gift.amountCents),
			received: dollars(receivedCents(gift)),
			tier: gift.tier,
			createdAt: iso(gift.createdAt),
		})),
	}
}
export type AnalyticsOverview = Awaited<ReturnType<typeof analyticsOverview>>

/** New accounts per ET day of the window, by index range. */
async function newUsersPerDay(window: Window) {
	const day = sql<string>`((${users.createdAt} at time zone ${sql.raw(`'${ZONE}'`)})::date)::text`
	const rows = await db
		.select({ day, count: int(sql`count(*)`) })
		.from(users)
		.where(inRange(users.createdAt, window))
		.groupBy(sql`1`)
	return new Map(rows.map((row) => [row.day, row.count]))
}

/** Each ET day of the window: its new accounts, and the accounts there were at its end (from those before it). */
function userGrowth(window: Window, perDay: Map<string, number>, before: number) {
	let total = before
	return etDaysBetween(window.start, window.end).map((date) => {
		const newUsers = perDay.get(date) ?? 0
		total += newUsers
		return { date, newUsers, totalUsers: total }
	})
}

/** The 10 newest signups, orders and donations together (spec 002 §2 overview); an amount is the money received. */
async function recentActivityList(): Promise<RecentActivity[]> {
	const rows = rowsOf<{
		type: RecentActivity['type']
		who: string | null
		detail: string | null
		cents: number | string | null
		at: string | Date
	}>(
		await db.execute(sql`
			(select 'signup' as type, coalesce(nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), ''), ${users.username}, ${users.email}) as who,
				null as detail, null::int as cents, ${users.createdAt} as at
				from ${users} order by ${users.createdAt} desc limit 10)
			union all
			(select 'order', coalesce(${orders.customerName}, ${orders.customerEmail}), ${orders.confirmationNumber},
				${ORDER_RECEIVED}, ${orders.createdAt}
				from ${orders} where ${COUNTED_ORDER} order by ${orders.createdAt} desc limit 10)
			union all
			(select 'donation', coalesce(${donations.donorName}, 'An anonymous donor'), ${donations.tier},
				${GIFT_RECEIVED}, ${donations.createdAt}
				from ${donations} where ${CONFIRMED_GIFT} order by ${donations.createdAt} desc limit 10)
			order by at desc limit 10`),
	)
	return rows.map((row) => {
		const amount = row.cents == null ? null : dollars(Number(row.cents))
		const description =
			row.type === 'signup'
				? `New account: ${row.who}`
				: row.type === 'order'
					? `Order ${row.detail} from ${row.who}`
					: `Donation (${row.detail}) from ${row.who}`
		return { type: row.type, description, timestamp: new Date(row.at).toISOString(), amount }
	})
}

/** Spec 002 §3 "Filtered analytics": real users only (no bots, not the owner, no excluded addresses), last N hours. */
export async function filteredAnalytics(hours: FilterHours, now = new Date()) {
	const window = { start: new Date(now.getTime() - hours * 3_600_000), end: now }
	const doneUntil = await rolledUpUntil()
	const [counts, visitors, perHour, signups, converted] = await Promise.all([
		visitCounts(window, doneUntil),
		visitorCounts(window, doneUntil),
		hourlyCounts(window, doneUntil),
		db
			.select({ count: int(sql`count(*)`) })
			.from(users)
			.where(inRange(users.createdAt, window)),
		realUsersWho(window),
	])
	const left = [
		counts.botVisits ? `${counts.botVisits.toLocaleString('en-US')} from bots` : null,
		counts.ownerVisits ? `${counts.ownerVisits.toLocaleString('en-US')} of the owner's own` : null,
		counts.excludedVisits ? `${counts.excludedVisits.toLocaleString('en-US')} from excluded addresses` : null,
	].filter(Boolean)
	return {
		realUserVisits: counts.realVisits,
		realUsers: visitors.realUsers,
		signups: signups[0]?.count ?? 0,
		realUsersWhoSignedUp: converted.signedUp,
		conversionRate: percent(converted.signedUp, visitors.realUsers),
		timeRange: `${hours}hours`,
		hours,
		hourlyBreakdown: perHour.map((slot) => ({ hour: slot.hour.toISOString(), visit_count: slot.realVisits, users: slot.realUsers })),
		excluded: { bots: counts.botVisits, owner: counts.ownerVisits, addresses: counts.excludedVisits },
		summary: {
			description:
				`${counts.realVisits.toLocaleString('en-US')} visits by ${visitors.realUsers.toLocaleString('en-US')} real users in the last ${hours} hours.` +
				(left.length ? ` Left out: ${left.join(', ')}.` : ' Nothing was left out.'),
		},
	}
}
export type FilteredAnalytics = Awaited<ReturnType<typeof filteredAnalytics>>

/** Spec 002 §3 "Traffic analysis" for one ET day: people's visits (bots left out), hour by hour. */
export async function trafficAnalysis(day: string, now = new Date()) {
	const bounds = etDayBounds(day)
	const window = { start: bounds.start, end: bounds.end < now ? bounds.end : now }
	if (window.end <= window.start) window.end = window.start
	const doneUntil = await rolledUpUntil()
	const [counts, visitors, perHour, pages, browsers, devices, referrers, signups] = await Promise.all([
		visitCounts(window, doneUntil),
		visitorCounts(window, doneUntil),
		hourlyCounts({ start: bounds.start, end: window.end }, doneUntil),
		visitsBy('path', window, doneUntil, { limit: 8 }),
		visitsBy('browser', window, doneUntil),
		visitsBy('device', window, doneUntil),
		visitsBy('referrer', window, doneUntil, { limit: 8 }),
		db
			.select({
				total: int(sql`count(*)`),
				fromFirstVisit: int(sql`count(*) filter (where ${users.firstVisitOn} = ${day})`),
			})
			.from(users)
			.where(inRange(users.createdAt, window)),
	])
	const hourlyBreakdown = perHour.map((slot) => ({
		hour: etHour(slot.hour),
		startsAt: slot.hour.toISOString(),
		visits: slot.visits,
		uniqueVisitors: slot.uniqueVisitors,
	}))
	return {
		date: day,
		totalVisits: counts.visits,
		uniqueVisitors: visitors.visitors,
		firstTimeVisitors: visitors.firstTimeVisitors,
		returningVisitors: visitors.returningVisitors,
		signups: signups[0]?.total ?? 0,
		signupsFromFirstVisit: signups[0]?.fromFirstVisit ?? 0,
		hourlyBreakdown,
		topPages: pages.map((row) => ({ path: row.value, visits: row.visits })),
		browserStats: browsers.map((row) => ({ browser: row.value, visits: row.visits })),
		deviceStats: devices.map((row) => ({ device: row.value, visits: row.visits })),
		referrers: referrers.map((row) => ({ host: row.value, visits: row.visits })),
		insights: trafficInsights(counts.visits, hourlyBreakdown, pages, devices, visitors),
	}
}
export type TrafficAnalysis = Awaited<ReturnType<typeof trafficAnalysis>>

function hourName(hour: number) {
	const suffix = hour < 12 ? 'AM' : 'PM'
	return `${hour % 12 || 12} ${suffix} ET`
}

function trafficInsights(
	total: number,
	hours: Array<{ hour: number; visits: number }>,
	pages: Array<{ value: string; visits: number }>,
	devices: Array<{ value: string; visits: number }>,
	visitors: { visitors: number; firstTimeVisitors: number },
) {
	if (!total) return ['No visits were recorded on this day.']
	const busiest = hours.reduce((best, slot) => (slot.visits > best.visits ? slot : best), hours[0]!)
	const mobile = devices.filter((d) => d.value !== 'desktop').reduce((sum, d) => sum + d.visits, 0)
	const insights = [`The busiest hour was ${hourName(busiest.hour)} with ${busiest.visits.toLocaleString('en-US')} visits.`]
	if (pages[0]) insights.push(`${pages[0].value} was the most visited page (${percent(pages[0].visits, total)}% of visits).`)
	insights.push(`${percent(mobile, total)}% of visits came from phones and tablets.`)
	if (visitors.visitors) insights.push(`${percent(visitors.firstTimeVisitors, visitors.visitors)}% of visitors came for the first time.`)
	return insights
}

/** Spec 002 §3 "QR scan analytics": every scan ever, by scanner and device, the 10 newest, and the last 30 days. */
export async function scanAnalytics(now = new Date()) {
	const doneUntil = await rolledUpUntil()
	const everything = { start: new Date(0), end: now }
	const last30 = { start: etDayBounds(etDay(new Date(now.getTime() - 29 * 86_400_000))).start, end: now }
	const [all, scanners, devices, perHour, recent] = await Promise.all([
		scansBy('all', everything, doneUntil),
		scansBy('scanner', everything, doneUntil),
		scansBy('device', everything, doneUntil),
		scansPerHour(last30, doneUntil),
		db
			.select({
				id: qrScans.id,
				qrCodeId: qrScans.qrCodeId,
				scannerType: qrScans.scannerType,
				isEmergencyAccess: qrScans.isEmergencyAccess,
				scannedAt: qrScans.scannedAt,
				city: qrScans.city,
				state: qrScans.state,
				country: qrScans.country,
				medicalFacility: qrScans.medicalFacility,
				deviceType: qrScans.deviceType,
				viewDurationSeconds: qrScans.viewDurationSeconds,
			})
			.from(qrScans)
			.orderBy(desc(qrScans.scannedAt), desc(qrScans.id))
			.limit(10),
	])
	const countsOf = (map: Map<string, { scans: number }>) =>
		Object.fromEntries([...map].sort((a, b) => b[1].scans - a[1].scans).map(([key, value]) => [key, value.scans]))
	const perDay = new Map<string, number>()
	for (const [hour, count] of perHour) perDay.set(etDay(new Date(hour)), (perDay.get(etDay(new Date(hour))) ?? 0) + count)
	const total = all.get('')
	return {
		totalScans: total?.scans ?? 0,
		emergencyScans: total?.emergencyScans ?? 0,
		lastScanAt: iso(total?.lastScanAt),
		scannerTypes: countsOf(scanners),
		deviceTypes: { mobile: 0, desktop: 0, tablet: 0, ...countsOf(devices) },
		scansPerDay: etDaysBetween(last30.start, last30.end).map((date) => ({ date, scans: perDay.get(date) ?? 0 })),
		recentScans: recent.map((scan) => ({ ...scan, scannedAt: scan.scannedAt.toISOString() })),
	}
}
export type ScanAnalytics = Awaited<ReturnType<typeof scanAnalytics>>

export const SCANS_CSV_COLUMNS = [
	'id',
	'scannedAt',
	'qrCodeId',
	'scannerType',
	'isEmergencyAccess',
	'deviceType',
	'city',
	'state',
	'country',
	'medicalFacility',
	'viewDurationSeconds',
] as const

/** Every scan, newest first, read 2,000 at a time by key (a scan recorded meanwhile neither shifts nor repeats one). */
export async function* scansCsvLines(): AsyncGenerator<string> {
	yield csvLine(SCANS_CSV_COLUMNS)
	let after: number | null = null
	for (;;) {
		const rows: Array<typeof qrScans.$inferSelect> = await db
			.select()
			.from(qrScans)
			.where(after === null ? undefined : lt(qrScans.id, after))
			.orderBy(desc(qrScans.id))
			.limit(2000)
		for (const scan of rows)
			yield csvLine([
				scan.id,
				scan.scannedAt.toISOString(),
				scan.qrCodeId,
				scan.scannerType,
				scan.isEmergencyAccess,
				scan.deviceType,
				scan.city,
				scan.state,
				scan.country,
				scan.medicalFacility,
				scan.viewDurationSeconds,
			])
		if (rows.length < 2000) return
		after = rows.at(-1)!.id
	}
}

/** The header's Export CSV: the range's figures, then its days one by one. */
export async function* analyticsCsvLines(range: TimeRange, now = new Date()): AsyncGenerator<string> {
	const overview = await analyticsOverview(range, now)
	yield csvLine(['metric', 'value'])
	const figures: Array<[string, string | number | null]> = [
		['timeRange', range],
		['platformUsers', overview.totalUsers],
		['realUserVisits', overview.totalVisits],
		['realUsers', overview.realUsers],
		['lastVisit', overview.lastVisit],
		['totalRevenue', overview.totalRevenue.toFixed(2)],
		['shopRevenue', overview.shopRevenue.toFixed(2)],
		['donationRevenue', overview.donationRevenue.toFixed(2)],
		['newRegistrations', overview.totalSignups],
		['realUsersWhoSignedUp', overview.realUsersWhoSignedUp],
		['signupRate', overview.signupRate],
		['emailSignups', overview.emailSignups],
		['productOrders', overview.totalOrders],
		['realUsersWhoOrdered', overview.realUsersWhoOrdered],
		['orderConversionRate', overview.orderConversionRate],
		['medicalQrCreated', overview.totalQrCreated],
		['qrDownloads', overview.totalQrDownloaded],
		['qrScans', overview.totalQrAccessed],
		['emergencyAccess', overview.emergencyAccess],
	]
	for (const row of figures) yield csvLine(row)
	yield '\r\n'
	yield csvLine(['date', 'newUsers', 'totalUsers'])
	for (const day of overview.userGrowth) yield csvLine([day.date, day.newUsers, day.totalUsers])
	yield '\r\n'
	yield csvLine(['type', 'description', 'timestamp', 'amount'])
	for (const item of overview.recentActivity) yield csvLine([item.type, item.description, item.timestamp, item.amount])
}

/** How far back the Emails tab counts visits that came from e-mail links. */
export const EMAIL_VISITS_DAYS = 90

/** Spec 002 §3 "Email analytics": the messages (sent, opened, clicked) and the visits their links brought. */
export async function emailAnalytics(now = new Date()) {
	const window = { start: new Date(now.getTime() - EMAIL_VISITS_DAYS * 86_400_000), end: now }
	const doneUntil = await rolledUpUntil()
	const [email, fromEmail, visitors, recent] = await Promise.all([
		emailMessageStats(),
		visitsBy('email', window, doneUntil),
		visitorCounts(window, doneUntil),
		db
			.select({ id: visits.id, pageUrl: visits.path, visitedAt: visits.visitedAt, ipAddress: visits.ipAddress })
			.from(visits)
			.where(sql`${visits.emailId} is not null and not ${visits.isBot}`)
			.orderBy(desc(visits.visitedAt))
			.limit(10),
	])
	return {
		email,
		visits: {
			days: EMAIL_VISITS_DAYS,
			totalVisitsFromEmails: fromEmail[0]?.visits ?? 0,
			uniqueVisitorsFromEmails: visitors.emailVisitors,
			recentVisits: recent.map((visit) => ({ ...visit, visitedAt: visit.visitedAt.toISOString() })),
		},
	}
}
export type EmailAnalytics = Awaited<ReturnType<typeof emailAnalytics>>

/** A QR code image downloaded by its owner: counted for the header's "QR downloads". */
export async function recordQrDownload(qrCodeId: number, userId: string) {
	await db.insert(qrDownloads).values({ qrCodeId, userId })
}
