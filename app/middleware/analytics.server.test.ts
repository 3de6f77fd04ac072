import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { db } from '#db/client.ts'
import { emails, visits } from '#db/schema.ts'
import { flushVisits, SEEN_COOKIE } from '#app/domain/analytics/collect.server.ts'
import { etDay } from '#app/domain/analytics/et-time.ts'
import * as pageView from '#app/routes/api/page-view.ts'
import { env } from '#app/utils/env.server.ts'
import { clientAddressContext } from '#app/utils/request.server.ts'
import { call, createUser, jsonRequest, sessionCookie, testAddress, uniqueEmail, unwrap } from '#tests/factories.ts'
import { analyticsMiddleware } from './analytics.server.ts'

const BROWSER = {
	'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
	'accept-language': 'en-US,en;q=0.9',
	accept: 'text/html,application/xhtml+xml',
}

type Answer = { status?: number; type?: string; location?: string }

/** One request through the middleware, with `next` answering as the route would; the address is the request's own. */
async function browse(path: string, init: { method?: string; headers?: Record<string, string>; answer?: Answer } = {}) {
	const address = testAddress()
	const request = new Request(new URL(path, 'http://localhost:3000'), {
		method: init.method ?? 'GET',
		headers: { ...BROWSER, ...init.headers },
	})
	const context = new RouterContextProvider()
	context.set(clientAddressContext, address)
	const { status = 200, type = 'text/html; charset=utf-8', location } = init.answer ?? {}
	const sent = new Response(status >= 300 && status < 400 ? null : '<!DOCTYPE html><html></html>', {
		status,
		headers: { 'content-type': type, ...(location ? { location } : {}) },
	})
	const args = { request, params: {}, context, url: new URL(request.url), pattern: '' } as unknown as Parameters<
		typeof analyticsMiddleware
	>[0]
	const response = (await analyticsMiddleware(args, async () => sent)) as Response
	expect(response).toBe(sent)
	return { address, response, seen: seenCookieOf(response) }
}

const seenCookieOf = (response: Response) => response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SEEN_COOKIE}=`)) ?? null

async function visitsFrom(address: string) {
	await flushVisits()
	return db
		.select()
		.from(visits)
		.where(sql`${visits.ipAddress} = ${address}::inet`)
		.orderBy(visits.id)
}

/** The middleware records after answering: waits until the address has that many views. */
async function recorded(address: string, count = 1) {
	let rows: Awaited<ReturnType<typeof visitsFrom>> = []
	await vi.waitFor(
		async () => {
			rows = await visitsFrom(address)
			expect(rows).toHaveLength(count)
		},
		{ timeout: 5_000, interval: 20 },
	)
	return rows
}

async function trackedMessage() {
	const trackingId = randomBytes(16).toString('base64url')
	const [row] = await db
		.insert(emails)
		.values({
			toAddress: uniqueEmail('arrival'),
			emailType: 'order-confirmation',
			subject: 'Hi',
			textBody: 'Hi',
			status: 'sent',
			trackingId,
		})
		.returning({ id: emails.id })
	return { id: row!.id, trackingId }
}

describe('the analytics middleware', () => {
	test('a page loaded as a document is one view; the seen cookie is sent only to a browser without one', async () => {
		const today = etDay(new Date())
		const first = await browse('/dashboard/qr-codes/42/print?pin=ABCD2345&token=secret', {
			headers: { referer: 'https://www.google.com/search?q=medical+id' },
		})
		expect(first.seen).toBe(`${SEEN_COOKIE}=${today}; Max-Age=34560000; Path=/; HttpOnly; SameSite=Lax`)
		const [row] = await recorded(first.address)
		expect(row).toMatchObject({
			path: '/dashboard/qr-codes/:id/print',
			referrerHost: 'www.google.com',
			isFirstVisit: true,
			isBot: false,
			isOwner: false,
			isExcluded: false,
			userId: null,
			emailId: null,
			browser: 'Chrome',
			deviceType: 'desktop',
		})

		const again = await browse('/shop', { headers: { cookie: `${SEEN_COOKIE}=${today}`, referer: 'http://localhost:3000/dashboard' } })
		expect(again.seen).toBeNull()
		expect(await recorded(again.address)).toMatchObject([{ path: '/shop', isFirstVisit: true, referrerHost: null }])

		const returning = await browse('/', { headers: { cookie: `theme=dark; ${SEEN_COOKIE}=2025-01-31` } })
		expect(returning.seen).toBeNull()
		expect(await recorded(returning.address)).toMatchObject([{ path: '/', isFirstVisit: false }])

		const broken = await browse('/', { headers: { cookie: `${SEEN_COOKIE}=not-a-date` } })
		expect(broken.seen).toContain(`${SEEN_COOKIE}=${today};`)
		expect(await recorded(broken.address)).toMatchObject([{ isFirstVisit: true }])
	})

	test('the signed-in person, the owner, and an arrival from an e-mail link', async () => {
		const user = await createUser()
		const signedIn = await browse('/dashboard', { headers: { cookie: await sessionCookie(user.id) } })
		expect(await recorded(signedIn.address)).toMatchObject([{ userId: user.id, isOwner: false }])

		const saved = env.OWNER_EMAIL
		const owner = await createUser()
		env.OWNER_EMAIL = owner.email.toLowerCase()
		try {
			const visit = await browse('/admin', { headers: { cookie: await sessionCookie(owner.id) } })
			expect(await recorded(visit.address)).toMatchObject([{ userId: owner.id, isOwner: true }])
		} finally {
			env.OWNER_EMAIL = saved
		}

		const message = await trackedMessage()
		const clicked = await browse(`/shop?em=${message.trackingId}`)
		expect(await recorded(clicked.address)).toMatchObject([{ path: '/shop', emailId: message.id }])
		// Sent on to sign in: still the arrival.
		const redirected = await browse(`/dashboard?em=${message.trackingId}`, {
			answer: { status: 302, type: 'text/plain', location: '/auth' },
		})
		expect(redirected.seen).not.toBeNull()
		expect(await recorded(redirected.address)).toMatchObject([{ path: '/dashboard', emailId: message.id }])
	})

	test('a bot’s page view is recorded as a bot', async () => {
		const bot = await browse('/', { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } })
		expect(await recorded(bot.address)).toMatchObject([{ isBot: true }])
	})

	test('nothing for data requests, errors, redirects, other methods, non-HTML answers, or API, scan, QR, e-mail and file paths', async () => {
		const cases = await Promise.all([
			browse('/dashboard.data'),
			browse('/_root.data'),
			browse('/no-such-page', { answer: { status: 404 } }),
			browse('/dashboard', { answer: { status: 500 } }),
			browse('/dashboard', { answer: { status: 302, type: 'text/plain', location: '/auth' } }),
			browse('/dashboard', { method: 'POST' }),
			browse('/dashboard', { method: 'HEAD' }),
			browse('/dashboard', { answer: { type: 'application/json' } }),
			browse('/api/auth/user'),
			browse('/api'),
			browse('/scan/q1w2e3r4t5y6u7i8o9p0asdf'),
			browse('/qr/q1w2e3r4t5y6u7i8o9p0asdf'),
			browse('/e/c/q1w2e3r4t5y6u7i8o9p0asdf'),
			browse('/files/document/12'),
			browse('/assets/app.css'),
		])
		for (const { seen } of cases) expect(seen).toBeNull()
		// A page view made after them all is written; none of theirs was.
		const sentinel = await browse('/')
		await recorded(sentinel.address)
		await new Promise((resolve) => setTimeout(resolve, 50))
		for (const { address } of cases) expect(await visitsFrom(address)).toEqual([])
	})
})

describe('POST /api/page-view', () => {
	async function beacon(body: unknown, cookie?: string) {
		const address = testAddress()
		const request = jsonRequest('/api/page-view', body, { cookie })
		for (const [name, value] of Object.entries(BROWSER)) request.headers.set(name, value)
		const { result } = await call(pageView.action, request, {}, address)
		return { address, response: result as Response }
	}

	test('a path of this site: 204 and one view, like a document’s (no query kept, the seen cookie when missing)', async () => {
		const sent = await beacon({ path: '/dashboard' })
		expect(sent.response.status).toBe(204)
		expect(seenCookieOf(sent.response)).toContain(`${SEEN_COOKIE}=${etDay(new Date())};`)
		expect(await visitsFrom(sent.address)).toMatchObject([{ path: '/dashboard', isFirstVisit: true, isBot: false, referrerHost: null }])

		const withQuery = await beacon({ path: '/claim/AB3CD7EF?pin=AB3CD7EF#top' }, `${SEEN_COOKIE}=2025-01-31`)
		expect(withQuery.response.status).toBe(204)
		expect(seenCookieOf(withQuery.response)).toBeNull()
		expect(await visitsFrom(withQuery.address)).toMatchObject([{ path: '/claim/:token', isFirstVisit: false }])
	})

	test.each([
		['an absolute URL', { path: 'https://evil.example/dashboard' }],
		['a protocol-relative URL', { path: '//evil.example/dashboard' }],
		['a relative path', { path: 'dashboard' }],
		['an empty path', { path: '' }],
		['a number', { path: 42 }],
		['null', { path: null }],
		['no path', {}],
		['a path over 512 characters', { path: '/' + 'a'.repeat(512) }],
		['an array', [{ path: '/dashboard' }]],
		['text that is no JSON', '{"path": "/dashboard"'],
	])('%s: 400 and nothing recorded', async (_name, body) => {
		const sent = await beacon(body)
		expect(sent.response.status).toBe(400)
		expect(await sent.response.json()).toHaveProperty('message')
		expect(seenCookieOf(sent.response)).toBeNull()
		expect(await visitsFrom(sent.address)).toEqual([])
	})

	test('only POST is answered', async () => {
		const address = testAddress()
		const { result } = await call(pageView.loader, new Request('http://localhost:3000/api/page-view'), {}, address)
		expect((await unwrap(result)).status).toBe(405)
		expect(await visitsFrom(address)).toEqual([])
	})
})
