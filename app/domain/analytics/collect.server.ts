import { createHash, randomBytes } from 'node:crypto'
import { isbot } from 'isbot'
import UAParser from 'ua-parser-js'
import { sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { analyticsSalts, emails, users, visits } from '#db/schema.ts'
import { normalizeAddress } from '#app/utils/client-address.ts'
import { env } from '#app/utils/env.server.ts'
import { etDay, isDayString, nextDay } from './et-time.ts'
import { LATE_AFTER_MS, reopenRollupFrom } from './rollup.server.ts'
import { log } from '#app/utils/log.server.ts'
import { plainCookie } from '#app/utils/plain-cookie.ts'

/** Holds only the date of the browser's first visit: "seen before", never an identifier. */
export const SEEN_COOKIE = 'hmh_seen'
const SEEN_COOKIE_DAYS = 400
const seenCookie = plainCookie(SEEN_COOKIE, { path: '/', maxAge: SEEN_COOKIE_DAYS * 86_400, httpOnly: true, sameSite: 'lax' })

/** Rows wait in memory at most this long, or until this many are waiting, then go in one INSERT. */
const FLUSH_MS = 1000
const FLUSH_ROWS = 200
/** Past this many waiting rows (the database is down, say) new views are counted as dropped rather than kept. */
const MAX_WAITING = 20_000
/** A row that failed this many flushes in a row is dropped (what cannot be written must not block the rest). */
const MAX_FAILED_FLUSHES = 12
/** Per address and minute; beyond it (a script replaying the page-view call) views are not recorded. */
const VIEWS_PER_ADDRESS_PER_MINUTE = 300

export type PageView = {
	path: string
	/** The matched route's pattern ('/claim/:pin'), when known. */
	pattern?: string | null
	userAgent: string | null
	acceptLanguage: string | null
	address: string
	referrer: string | null
	/** The SEEN_COOKIE value the browser sent, if any. */
	seenCookie: string | null
	userId: string | null
	isOwner: boolean
	/** The `em` parameter a tracked e-mail link adds: the message's tracking id. */
	emailTrackingId: string | null
	/** Hosts of this site: a referrer from one of them is internal and not recorded. */
	ownHosts: string[]
	at?: Date
}

type VisitRow = Omit<typeof visits.$inferInsert, 'emailId'> & { emailTrackingId: string | null; failedFlushes?: number }

const PARAM = /^:[A-Za-z][\w]{0,30}$/

function normalizeSegment(segment: string) {
	let text = segment
	try {
		text = decodeURIComponent(segment)
	} catch {
		// kept as sent
	}
	if (PARAM.test(text)) return text
	if (/^\d+$/.test(text)) return ':id'
	// Tokens: long, mixed letters and digits, or shouted (this site's own paths are lower case; PINs are not).
	if (text.length > 40 || (text.length >= 6 && ((/\d/.test(text) && /[A-Za-z]/.test(text)) || !/[a-z]/.test(text)))) return ':token'
	return text.replace(/[^\w.~-]/g, '').toLowerCase() || ':token'
}

/**
 * Ids and tokens never reach the table, and pages read as routes: '/admin/orders/:orderId'. With the matched route's
 * pattern (the router's, or one a page's script reports), its parameters name the segments; without one, numbers and
 * token-like segments are replaced.
 */
export function normalizePath(pathname: string, pattern?: string | null) {
	const actual = pathname.slice(0, 512).split('/').filter(Boolean)
	const shape = pattern ? pattern.slice(0, 512).split('/').filter(Boolean) : []
	const segments = actual.slice(0, 8).map((segment, i) => {
		const param = shape[i]
		if (param && (param.startsWith(':') || param === '*')) return param === '*' ? ':rest' : param.replace(/\?$/, '')
		return normalizeSegment(segment)
	})
	return `/${segments.join('/')}`
}

/** Bots by name (isbot), and requests no browser makes: no user agent, or a page fetched with no language at all. */
export function isBotRequest(userAgent: string | null, acceptLanguage: string | null) {
	if (!userAgent || userAgent.length < 10) return true
	if (isbot(userAgent)) return true
	return !acceptLanguage
}

export function isExcludedAddress(address: string, prefixes: readonly string[] = env.ANALYTICS_EXCLUDE_PREFIXES) {
	const normalized = normalizeAddress(address)
	return prefixes.some((prefix) => normalized.startsWith(prefix))
}

const parsedAgents = new Map<string, { browser: string; deviceType: 'mobile' | 'tablet' | 'desktop' }>()

/** Browser family and device type, parsed once per distinct user agent. */
export function browserAndDevice(userAgent: string | null) {
	const ua = (userAgent ?? '').slice(0, 512)
	let known = parsedAgents.get(ua)
	if (!known) {
		const parser = new UAParser(ua)
		const name = parser.getBrowser().name ?? 'Other'
		const type = parser.getDevice().type
		known = {
			browser: name.replace(/^Mobile /, '').replace(/ WebView$/, '') || 'Other',
			deviceType: type === 'tablet' ? 'tablet' : type === 'mobile' || type === 'wearable' ? 'mobile' : 'desktop',
		}
		if (parsedAgents.size >= 1000) parsedAgents.clear()
		parsedAgents.set(ua, known)
	}
	return known
}

function referrerHost(referrer: string | null, ownHosts: string[]) {
	if (!referrer) return null
	try {
		const host = new URL(referrer).host.toLowerCase().slice(0, 100)
		return host && !ownHosts.includes(host) ? host : null
	} catch {
		return null
	}
}

const salts = new Map<string, Promise<Buffer>>()

/** The day's salt, the same on every instance: the first to ask creates it. */
function saltFor(day: string) {
	let salt = salts.get(day)
	if (!salt) {
		// Only the salts of the day being recorded and the day before are kept in memory: none outlives its use.
		for (const known of salts.keys()) if (nextDay(known) < day) salts.delete(known)
		salt = (async () => {
			await db
				.insert(analyticsSalts)
				.values({ day, salt: randomBytes(16) })
				.onConflictDoNothing()
			const [row] = await db
				.select({ salt: analyticsSalts.salt })
				.from(analyticsSalts)
				.where(sql`${analyticsSalts.day} = ${day}`)
			return Buffer.from(row!.salt)
		})()
		salts.set(day, salt)
		salt.catch(() => salts.delete(day))
	}
	return salt
}

/** Plausible's visitor id: hash(daily salt, address, user agent) as a 64-bit number; it means nothing after the day. */
export function visitorHash(salt: Buffer, address: string, userAgent: string | null) {
	return createHash('sha256')
		.update(salt)
		.update('\0')
		.update(normalizeAddress(address))
		.update('\0')
		.update(userAgent ?? '')
		.digest()
		.readBigInt64BE(0)
}

/** The cookie to send when the browser has none yet (or a broken one): today's date, so later visits are "returning". */
export async function seenCookieFor(seen: string | null, now = new Date()) {
	if (seen && isDayString(seen)) return null
	return seenCookie.serialize(etDay(now), { secure: new URL(env.PUBLIC_URL).protocol === 'https:' })
}

export async function readSeenCookie(cookieHeader: string | null): Promise<string | null> {
	const value: unknown = await seenCookie.parse(cookieHeader)
	return typeof value === 'string' ? value : null
}

/** The first-visit day a request's cookie carries, if it is a real date (recorded with a new account). */
export async function firstVisitDay(cookieHeader: string | null) {
	const value = await readSeenCookie(cookieHeader)
	return isDayString(value) ? value : null
}

const perAddress = new Map<string, { count: number; resetAt: number }>()

function withinAddressCap(address: string, now: number) {
	if (perAddress.size > 50_000) perAddress.clear()
	const entry = perAddress.get(address)
	if (!entry || entry.resetAt <= now) {
		perAddress.set(address, { count: 1, resetAt: now + 60_000 })
		return true
	}
	return ++entry.count <= VIEWS_PER_ADDRESS_PER_MINUTE
}

const waiting: VisitRow[] = []
let flushTimer: ReturnType<typeof setTimeout> | undefined
let flushing: Promise<unknown> = Promise.resolve()
export const recorderCounters = { recorded: 0, dropped: 0, failedFlushes: 0 }

/** Classifies one page view and queues it; the row reaches the database within a second (flushVisits). */
export async function recordPageView(view: PageView) {
	const at = view.at ?? new Date()
	if (!withinAddressCap(view.address, at.getTime())) return false
	const salt = await saltFor(etDay(at))
	const { browser, deviceType } = browserAndDevice(view.userAgent)
	const seen = view.seenCookie && isDayString(view.seenCookie) ? view.seenCookie : null
	enqueue({
		visitedAt: at,
		path: normalizePath(view.path, view.pattern),
		visitorHash: visitorHash(salt, view.address, view.userAgent),
		isFirstVisit: !seen || seen >= etDay(at),
		userId: view.userId,
		ipAddress: normalizeAddress(view.address),
		browser,
		deviceType,
		referrerHost: referrerHost(view.referrer, view.ownHosts),
		emailTrackingId: view.emailTrackingId && /^[A-Za-z0-9_-]{16,64}$/.test(view.emailTrackingId) ? view.emailTrackingId : null,
		isBot: isBotRequest(view.userAgent, view.acceptLanguage),
		isOwner: view.isOwner,
		isExcluded: isExcludedAddress(view.address),
	})
	return true
}

function enqueue(row: VisitRow) {
	if (waiting.length >= MAX_WAITING) {
		recorderCounters.dropped++
		return
	}
	waiting.push(row)
	if (waiting.length >= FLUSH_ROWS) void flushVisits()
	else flushTimer ??= setTimeout(() => void flushVisits(), FLUSH_MS).unref()
}

/** Writes every waiting view in one INSERT; on shutdown, and in tests, call it and wait. */
export function flushVisits(): Promise<number> {
	clearTimeout(flushTimer)
	flushTimer = undefined
	const rows = waiting.splice(0)
	const done = flushing.then(async () => {
		if (!rows.length) return 0
		try {
			await db.insert(visits).values(
				// By subquery: an account deleted or a message pruned since the view leaves a null, never a failed batch.
				rows.map(({ emailTrackingId, userId, failedFlushes: _, ...row }) => ({
					...row,
					userId: userId ? sql`(select ${users.id} from ${users} where ${users.id} = ${userId})` : null,
					emailId: emailTrackingId ? sql`(select ${emails.id} from ${emails} where ${emails.trackingId} = ${emailTrackingId})` : null,
				})),
			)
			recorderCounters.recorded += rows.length
			const earliest = rows.reduce((min, row) => Math.min(min, (row.visitedAt as Date).getTime()), Infinity)
			if (Date.now() - earliest > LATE_AFTER_MS) await reopenRollupFrom(new Date(earliest))
			return rows.length
		} catch (error) {
			recorderCounters.failedFlushes++
			log.error({ err: error, views: rows.length }, 'page views not written')
			// Kept for the next flushes while there is room: a short database outage loses nothing.
			const retry = rows.filter((row) => (row.failedFlushes = (row.failedFlushes ?? 0) + 1) <= MAX_FAILED_FLUSHES)
			if (waiting.length + retry.length <= MAX_WAITING) {
				waiting.unshift(...retry)
				recorderCounters.dropped += rows.length - retry.length
				flushTimer ??= setTimeout(() => void flushVisits(), 5 * FLUSH_MS).unref()
			} else recorderCounters.dropped += rows.length
			return 0
		}
	})
	flushing = done
	return done
}
