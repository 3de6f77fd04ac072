import { randomBytes, randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { analyticsSalts, emails, users, visits } from '#db/schema.ts'
import { createUser, testAddress, uniqueEmail } from '#tests/factories.ts'
import {
	browserAndDevice,
	firstVisitDay,
	flushVisits,
	isBotRequest,
	isExcludedAddress,
	normalizePath,
	readSeenCookie,
	recordPageView,
	seenCookieFor,
	SEEN_COOKIE,
	visitorHash,
	type PageView,
} from './collect.server.ts'
import { etDay } from './et-time.ts'

const UA = {
	iphone:
		'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
	ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
	chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
	firefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
	android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36',
	headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
	googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
	gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
	curl: 'curl/8.5.0',
}

const view = (overrides: Partial<PageView> = {}): PageView => ({
	path: '/dashboard',
	userAgent: UA.chrome,
	acceptLanguage: 'en-US,en;q=0.9',
	address: testAddress(),
	referrer: null,
	seenCookie: null,
	userId: null,
	isOwner: false,
	emailTrackingId: null,
	ownHosts: ['localhost:3000'],
	...overrides,
})

/** Each recorded row of an address, oldest first. */
async function rowsOf(address: string) {
	await flushVisits()
	return db
		.select()
		.from(visits)
		.where(sql`${visits.ipAddress} = ${address}::inet`)
		.orderBy(visits.id)
}

async function recordOne(overrides: Partial<PageView>) {
	const address = overrides.address ?? testAddress()
	expect(await recordPageView(view({ ...overrides, address }))).toBe(true)
	const rows = await rowsOf(address)
	expect(rows).toHaveLength(1)
	return rows[0]!
}

async function saltRows(day: string) {
	return db.select().from(analyticsSalts).where(eq(analyticsSalts.day, day))
}

/** A different ET day each call (long ago, so no other test has a salt on it). */
let dayCounter = 0
function freshDay() {
	const at = new Date(Date.UTC(2021, 0, 1, 17) + ++dayCounter * 2 * 86_400_000)
	return { at, day: etDay(at) }
}

/** An IPv4 address under the prefix that no other test uses. */
const randomV4 = (prefix: string) => `${prefix}.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 254) + 1}`

describe('normalizePath', () => {
	test.each([
		['/', '/'],
		['', '/'],
		['//dashboard//', '/dashboard'],
		['/Dashboard/Settings', '/dashboard/settings'],
		['/admin/orders/12345', '/admin/orders/:id'],
		['/dashboard/qr-codes/42/print', '/dashboard/qr-codes/:id/print'],
		['/dashboard/giving/statement/2026', '/dashboard/giving/statement/:id'],
		['/claim/AB3CD7EF', '/claim/:token'],
		['/claim/HJKMNPQR', '/claim/:token'],
		['/scan/q1w2e3r4t5y6u7i8o9p0asdf', '/scan/:token'],
		['/reset/' + 'a'.repeat(41), '/reset/:token'],
		['/%64ashboard', '/dashboard'],
		['/%E0%A4%A', '/:token'],
		['/%00', '/:token'],
		['/%F0%9F%98%80', '/:token'],
		['/<b>hello</b>', '/bhello/b'],
		['/<script>alert(1)</script>', '/:token/script'],
		['/shop/product-name', '/shop/product-name'],
	])('%j → %j', (input, expected) => {
		expect(normalizePath(input)).toBe(expected)
	})

	test('never keeps more than 8 segments of 40 characters, and never throws on any input', () => {
		expect(normalizePath('/a'.repeat(5000))).toBe('/a/a/a/a/a/a/a/a')
		expect(normalizePath('/' + 'x'.repeat(100_000))).toBe('/:token')
		expect(normalizePath('/' + 'ab/'.repeat(170) + 'secret12345')).not.toContain('secret')
		let seed = 7
		const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31)
		const alphabet = 'aZ09/%?&=#.~-_ é😀\0\n\t+:;@'
		for (let i = 0; i < 2000; i++) {
			const input = Array.from({ length: next() % 300 }, () => [...alphabet][next() % [...alphabet].length]).join('')
			const path = normalizePath(input)
			expect(path).toMatch(/^\/((?:[\w.~-]+|:id|:token)(?:\/(?:[\w.~-]+|:id|:token))*)?$/)
			expect(path.length).toBeLessThanOrEqual(1 + 8 * 41)
		}
	})
})

describe('isBotRequest', () => {
	test.each([
		['Googlebot', UA.googlebot, 'en', true],
		['GPTBot', UA.gptbot, 'en', true],
		['curl', UA.curl, 'en', true],
		['HeadlessChrome', UA.headless, 'en-US', true],
		['no user agent', null, 'en', true],
		['an empty user agent', '', 'en', true],
		['a too short user agent', 'Mozilla/5', 'en', true],
		['no Accept-Language', UA.chrome, null, true],
		['an empty Accept-Language', UA.chrome, '', true],
		['desktop Chrome', UA.chrome, 'en-US,en;q=0.9', false],
		['iPhone Safari', UA.iphone, 'en-US', false],
		['Firefox', UA.firefox, 'fr', false],
	])('%s', (_name, userAgent, language, bot) => {
		expect(isBotRequest(userAgent, language)).toBe(bot)
	})
})

describe('isExcludedAddress', () => {
	test('the default prefix 10.83. in any spelling of the address; other addresses are not excluded', () => {
		expect(isExcludedAddress('10.83.1.2')).toBe(true)
		expect(isExcludedAddress('::ffff:10.83.1.2')).toBe(true)
		expect(isExcludedAddress('::FFFF:10.83.200.7')).toBe(true)
		expect(isExcludedAddress(' 10.83.0.1 ')).toBe(true)
		expect(isExcludedAddress('10.84.1.2')).toBe(false)
		expect(isExcludedAddress('110.83.1.2')).toBe(false)
		expect(isExcludedAddress('10.8.3.1')).toBe(false)
		expect(isExcludedAddress('2001:db8::10.83.1.2')).toBe(false)
		expect(isExcludedAddress('203.0.113.5')).toBe(false)
	})

	test('prefixes given explicitly; none at all excludes nothing', () => {
		expect(isExcludedAddress('fd00::1', ['192.168.', 'fd00:'])).toBe(true)
		expect(isExcludedAddress('::ffff:192.168.1.1', ['192.168.', 'fd00:'])).toBe(true)
		expect(isExcludedAddress('10.83.1.2', ['192.168.'])).toBe(false)
		expect(isExcludedAddress('10.83.1.2', [])).toBe(false)
	})
})

describe('browserAndDevice', () => {
	test.each([
		['iPhone Safari', UA.iphone, { browser: 'Safari', deviceType: 'mobile' }],
		['iPad Safari', UA.ipad, { browser: 'Safari', deviceType: 'tablet' }],
		['Android Chrome', UA.android, { browser: 'Chrome', deviceType: 'mobile' }],
		['desktop Chrome', UA.chrome, { browser: 'Chrome', deviceType: 'desktop' }],
		['desktop Firefox', UA.firefox, { browser: 'Firefox', deviceType: 'desktop' }],
		['no user agent', null, { browser: 'Other', deviceType: 'desktop' }],
		['garbage', '\u0000'.repeat(5000) + 'x', { browser: 'Other', deviceType: 'desktop' }],
	])('%s', (_name, userAgent, expected) => {
		expect(browserAndDevice(userAgent)).toEqual(expected)
		// Parsed once, answered the same the second time.
		expect(browserAndDevice(userAgent)).toEqual(expected)
	})
})

describe('the seen cookie', () => {
	const now = new Date('2026-11-02T03:00:00Z') // 10 PM on November 1 in New York

	test('a browser without one (or with a broken one) gets today’s ET date for 400 days; one with a date gets nothing', async () => {
		const cookie = `${SEEN_COOKIE}=2026-11-01; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax`
		expect(await seenCookieFor(null, now)).toBe(cookie)
		expect(await seenCookieFor('', now)).toBe(cookie)
		expect(await seenCookieFor('garbage', now)).toBe(cookie)
		expect(await seenCookieFor('2026-02-30', now)).toBe(cookie)
		expect(await seenCookieFor('2026-11-01', now)).toBeNull()
		expect(await seenCookieFor('2020-01-31', now)).toBeNull()
	})

	test('read from a Cookie header among others; only a real date is a first-visit day', async () => {
		expect(await readSeenCookie(`a=1; ${SEEN_COOKIE}=2026-10-31; b=2`)).toBe('2026-10-31')
		expect(await readSeenCookie(`x${SEEN_COOKIE}=2026-10-31`)).toBeNull()
		expect(await readSeenCookie(null)).toBeNull()
		expect(await readSeenCookie('')).toBeNull()
		// The value is the plain text browsers already hold, not react-router's base64 JSON.
		expect(await readSeenCookie(`${SEEN_COOKIE}=2026-10-31; ${SEEN_COOKIE}=2026-01-01`)).toBe('2026-10-31')
		expect(await firstVisitDay(`${SEEN_COOKIE}=2026-10-31`)).toBe('2026-10-31')
		expect(await firstVisitDay(`${SEEN_COOKIE}=2026-13-01`)).toBeNull()
		expect(await firstVisitDay(`${SEEN_COOKIE}=%3Cscript%3E`)).toBeNull()
		expect(await firstVisitDay(null)).toBeNull()
	})

	test.each([
		['no cookie', null, true],
		['a cookie of today (ET)', '2026-11-01', true],
		['a cookie of a later day', '2026-11-02', true],
		['a cookie of yesterday (ET)', '2026-10-31', false],
		['a cookie of last year', '2025-06-01', false],
		['a garbage cookie', 'yesterday', true],
		['an impossible date', '2026-10-32', true],
	])('%s: first visit %s', async (_name, seenCookie, first) => {
		const row = await recordOne({ seenCookie, at: now })
		expect(row.isFirstVisit).toBe(first)
	})
})

describe('the daily salt', () => {
	test('same day, address and browser: the same visitor; another browser, address or day: another', async () => {
		const { at } = freshDay()
		const address = testAddress()
		const later = new Date(at.getTime() + 3 * 3_600_000)
		const nextDay = new Date(at.getTime() + 24 * 3_600_000)
		const a = await recordOne({ address, at })
		expect(await recordPageView(view({ address, at: later, path: '/shop' }))).toBe(true)
		expect((await rowsOf(address))[1]!.visitorHash).toBe(a.visitorHash)
		// The same person written two ways (a dual-stack socket shows IPv4 as ::ffff:…).
		const v4 = randomV4('192.0')
		const plain = await recordOne({ address: v4, at })
		await recordPageView(view({ address: `::ffff:${v4}`, at: later }))
		expect((await rowsOf(v4)).map((row) => row.visitorHash)).toEqual([plain.visitorHash, plain.visitorHash])
		await db.delete(visits).where(sql`${visits.ipAddress} = ${v4}::inet`)

		expect((await recordOne({ at, userAgent: UA.firefox })).visitorHash).not.toBe(a.visitorHash)
		expect(await recordPageView(view({ address, at: nextDay }))).toBe(true)
		const rows = await rowsOf(address)
		expect(rows).toHaveLength(3)
		expect(rows[2]!.visitorHash).not.toBe(a.visitorHash)
	})

	test('one row per day, shared: a salt another instance wrote is the one used, and two calls make one row', async () => {
		const { at, day } = freshDay()
		const salt = randomBytes(16)
		await db.insert(analyticsSalts).values({ day, salt })
		const address = testAddress()
		const row = await recordOne({ address, at })
		expect(row.visitorHash).toBe(visitorHash(salt, address, UA.chrome))
		expect(await saltRows(day)).toHaveLength(1)

		const other = freshDay()
		await Promise.all([recordPageView(view({ at: other.at })), recordPageView(view({ at: other.at }))])
		const made = await saltRows(other.day)
		expect(made).toHaveLength(1)
		expect(Buffer.from(made[0]!.salt)).toHaveLength(16)

		// Three other days push the cached salts out: the day's salt is read back from the table, unchanged.
		for (let i = 0; i < 3; i++) await recordPageView(view({ at: freshDay().at }))
		const address2 = testAddress()
		const again = await recordOne({ address: address2, at: other.at })
		expect(again.visitorHash).toBe(visitorHash(Buffer.from(made[0]!.salt), address2, UA.chrome))
		expect(await saltRows(other.day)).toHaveLength(1)
	})

	test('the hash depends on salt, address and user agent only', () => {
		const salt = Buffer.alloc(16, 1)
		const hash = visitorHash(salt, '203.0.113.9', UA.chrome)
		expect(typeof hash).toBe('bigint')
		expect(visitorHash(salt, '::ffff:203.0.113.9', UA.chrome)).toBe(hash)
		expect(visitorHash(Buffer.alloc(16, 2), '203.0.113.9', UA.chrome)).not.toBe(hash)
		expect(visitorHash(salt, '203.0.113.10', UA.chrome)).not.toBe(hash)
		expect(visitorHash(salt, '203.0.113.9', UA.firefox)).not.toBe(hash)
		expect(visitorHash(salt, '203.0.113.9', null)).toBe(visitorHash(salt, '203.0.113.9', ''))
	})
})

describe('recordPageView and flushVisits', () => {
	test('a person’s view: normalized path, browser, device, address, no flags', async () => {
		const address = testAddress()
		const at = new Date('2026-10-05T14:00:00Z')
		const row = await recordOne({ address, at, path: '/admin/orders/9876', userAgent: UA.iphone })
		expect(row).toMatchObject({
			visitedAt: at,
			path: '/admin/orders/:id',
			isFirstVisit: true,
			userId: null,
			browser: 'Safari',
			deviceType: 'mobile',
			referrerHost: null,
			emailId: null,
			isBot: false,
			isOwner: false,
			isExcluded: false,
		})
		expect(row.ipAddress).toBe(address)
	})

	test('flags: owner, excluded address (also IPv4-mapped), bot; the signed-in user', async () => {
		const user = await createUser()
		expect(await recordOne({ isOwner: true, userId: user.id })).toMatchObject({ isOwner: true, userId: user.id, isBot: false })
		const excluded = randomV4('10.83')
		await recordPageView(view({ address: `::ffff:${excluded}` }))
		expect(await rowsOf(excluded)).toMatchObject([{ isExcluded: true, ipAddress: excluded }])
		await db.delete(visits).where(sql`${visits.ipAddress} = ${excluded}::inet`)
		expect(await recordOne({ userAgent: UA.googlebot })).toMatchObject({ isBot: true, isOwner: false })
		expect(await recordOne({ acceptLanguage: null })).toMatchObject({ isBot: true })
		expect(await recordOne({ userAgent: UA.headless })).toMatchObject({ isBot: true })
	})

	test('the referrer’s host only when it is another site', async () => {
		const host = async (referrer: string | null) => (await recordOne({ referrer })).referrerHost
		expect(await host('https://www.Google.com/search?q=hit+me+helpers')).toBe('www.google.com')
		expect(await host('android-app://com.google.android.gm/')).toBe('com.google.android.gm')
		expect(await host('http://localhost:3000/dashboard?pin=ABCD2345')).toBeNull()
		expect(await host('not a url')).toBeNull()
		expect(await host('')).toBeNull()
		expect(await host(null)).toBeNull()
	})

	test('a view from an e-mail link points at the message when its tracking id is known, else at nothing', async () => {
		const trackingId = randomBytes(16).toString('base64url')
		const [message] = await db
			.insert(emails)
			.values({
				toAddress: uniqueEmail('visit'),
				emailType: 'order-confirmation',
				subject: 'Hi',
				textBody: 'Hi',
				status: 'sent',
				trackingId,
			})
			.returning({ id: emails.id })
		expect((await recordOne({ emailTrackingId: trackingId })).emailId).toBe(message!.id)
		expect((await recordOne({ emailTrackingId: randomBytes(16).toString('base64url') })).emailId).toBeNull()
		expect((await recordOne({ emailTrackingId: "x' or 1=1 --" })).emailId).toBeNull()
		expect((await recordOne({ emailTrackingId: 'short' })).emailId).toBeNull()
	})

	test('at most 300 views per address and minute are recorded', async () => {
		const address = testAddress()
		const at = new Date('2026-10-06T12:00:00Z')
		const answers: boolean[] = []
		for (let i = 0; i < 301; i++) answers.push(await recordPageView(view({ address, at: new Date(at.getTime() + i) })))
		expect(answers.filter(Boolean)).toHaveLength(300)
		expect(answers.at(-1)).toBe(false)
		// Another address is not held back, and a minute later this one is counted again.
		expect(await recordPageView(view({ at }))).toBe(true)
		expect(await recordPageView(view({ address, at: new Date(at.getTime() + 60_000) }))).toBe(true)
		expect(await rowsOf(address)).toHaveLength(301)
	})

	test('flushVisits writes every waiting view in one go and answers how many', async () => {
		const address = testAddress()
		await flushVisits()
		for (let i = 0; i < 5; i++) await recordPageView(view({ address, at: new Date(Date.UTC(2026, 9, 7, 12, i)) }))
		expect(await flushVisits()).toBe(5)
		expect(await flushVisits()).toBe(0)
		expect(await rowsOf(address)).toHaveLength(5)
	})

	test('a view whose account was deleted before the flush does not hold back the others', async () => {
		const goneUserId = randomUUID()
		const [orphan, other] = [testAddress(), testAddress()]
		await flushVisits()
		await recordPageView(view({ address: orphan, userId: goneUserId }))
		await recordPageView(view({ address: other }))
		try {
			await flushVisits()
			expect(await rowsOf(other)).toHaveLength(1)
			expect((await rowsOf(orphan)).map((row) => row.userId)).toEqual([null])
		} finally {
			// Whatever happened, nothing stays stuck in the buffer for the tests after this one.
			await db.insert(users).values({ id: goneUserId, email: uniqueEmail('gone') })
			await flushVisits()
		}
	})
})
