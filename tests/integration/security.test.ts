import { describe, expect, test } from 'vitest'
import { RouterContextProvider } from 'react-router'
import { securityMiddleware, setSecurityHeaders } from '#app/middleware/security.server.ts'
import { sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { rateLimits } from '#db/schema.ts'
import * as landing from '#app/routes/auth/landing.tsx'
import * as login from '#app/routes/auth/login.tsx'
import { accountKey, hit, TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { call, cookieFrom, createCode, createUser, formRequest, TEST_PASSWORD, testAddress, uniqueEmail, unwrap } from '#tests/factories.ts'
import { clientAddressContext } from '#app/utils/request.server.ts'
import { checkPin } from '#app/domain/claims/claims.server.ts'

function run(request: Request, ip: string) {
	const context = new RouterContextProvider()
	context.set(clientAddressContext, ip)
	const next = async () => new Response('ok')
	return (
		securityMiddleware as unknown as (args: { request: Request; context: RouterContextProvider }, n: typeof next) => Promise<Response>
	)({ request, context }, next)
}

async function outcome(promise: Promise<Response>) {
	try {
		return { status: (await promise).status, body: null as unknown }
	} catch (thrown) {
		if (thrown instanceof Response) return { status: thrown.status, body: await thrown.json() }
		const d = thrown as { init?: { status?: number }; data?: unknown }
		return { status: d.init?.status ?? 500, body: d.data }
	}
}

const post = (path: string, headers: Record<string, string> = {}) =>
	new Request(`http://localhost:3000${path}`, { method: 'POST', headers })

describe('rate limits (PostgreSQL counters)', () => {
	const signIn = async (email: string, password: string, address: string) =>
		unwrap((await call(login.action, formRequest('/login', { email, password }), {}, address)).result)

	test('the 11th sign-in a minute from one address is refused on the page, with the e-mail kept; another address is not', async () => {
		const address = testAddress()
		for (let i = 0; i < 10; i++) expect((await signIn(uniqueEmail(), 'wrong-password', address)).status).toBe(400)
		const email = uniqueEmail()
		const refused = await signIn(email, 'wrong-password', address)
		expect(refused.status).toBe(429)
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(refused.body).toMatchObject({ result: { initialValue: { email }, error: { '': [TOO_MANY_ATTEMPTS] } } })
		expect(JSON.stringify(refused.body)).not.toContain('wrong-password')
		expect((await signIn(uniqueEmail(), 'wrong-password', testAddress())).status).toBe(400)
	})

	test('ten wrong passwords from one address lock out that address alone: the right one from anywhere else signs in, and right ones never count', async () => {
		const user = await createUser()
		const attacker = testAddress()
		for (let i = 0; i < 10; i++)
			expect((await signIn(user.email, `wrong-${i}`, attacker)).body).toMatchObject({
				result: { error: { '': ['Invalid email or password'] } },
			})
		expect((await signIn(user.email, 'wrong-10', attacker)).status).toBe(429)
		expect((await signIn(user.email, TEST_PASSWORD, attacker)).status).toBe(429)
		// Eight wrong guesses at once from another address are all counted, and lock out only that address.
		const burst = testAddress()
		await Promise.all(Array.from({ length: 8 }, (_, i) => signIn(user.email, `burst-${i}`, burst)))
		const mine = testAddress()
		for (let i = 0; i < 3; i++) expect((await signIn(user.email, TEST_PASSWORD, mine)).status).toBe(302)
		expect((await signIn(user.email, 'one-slip', mine)).status).toBe(400)
		expect((await signIn(user.email, TEST_PASSWORD, mine)).status).toBe(302)
	})

	test('guesses spread over many addresses reach the account’s ceiling: then only a browser that signed in to it before gets in', async () => {
		const user = await createUser()
		const first = await signIn(user.email, TEST_PASSWORD, testAddress())
		const device = cookieFrom(first.headers, 'hmh_device')
		expect(device).toMatch(/^hmh_device=/)
		// A hundred wrong guesses from a hundred addresses (the per-address limit times ten), as the counter holds them.
		await db
			.insert(rateLimits)
			.values({ key: accountKey('signin-account', user.email), count: 100, resetAt: sql`now() + interval '1 minute'` })
			.onConflictDoUpdate({ target: rateLimits.key, set: { count: 100, resetAt: sql`now() + interval '1 minute'` } })
		expect((await signIn(user.email, TEST_PASSWORD, testAddress())).status).toBe(429)
		const trusted = await call(
			login.action,
			formRequest('/login', { email: user.email, password: TEST_PASSWORD }, { cookie: device }),
			{},
			testAddress(),
		)
		expect((await unwrap(trusted.result)).status).toBe(302)
		// Another account's trusted browser is not this account's.
		const other = await createUser()
		const otherDevice = cookieFrom((await signIn(other.email, TEST_PASSWORD, testAddress())).headers, 'hmh_device')
		const stranger = await call(
			login.action,
			formRequest('/login', { email: user.email, password: TEST_PASSWORD }, { cookie: otherDevice }),
			{},
			testAddress(),
		)
		expect((await unwrap(stranger.result)).status).toBe(429)
	})

	test('per-account counters name no one: neither the e-mail nor the user id is stored', async () => {
		const user = await createUser()
		await signIn(user.email, 'wrong-password', testAddress())
		await checkPin('ZZZZ9999', { userId: user.id, address: null })
		const rows = await db.select({ key: rateLimits.key }).from(rateLimits)
		expect(rows.some((r) => r.key === accountKey('signin-account', user.email))).toBe(true)
		expect(rows.some((r) => r.key === accountKey('wrong-pin:user', user.id))).toBe(true)
		expect(rows.filter((r) => r.key.includes(user.email) || r.key.includes(user.id))).toEqual([])
	})

	test('profile editing is in the loose tier: twenty allergies in a row (pages, their .data calls, the JSON API) meet no limit', async () => {
		const address = testAddress()
		for (const path of ['/dashboard', '/dashboard.data', '/medical-info', '/medical-info.data', '/api/allergies'])
			for (let i = 0; i < 20; i++) expect((await outcome(run(post(path), address))).status).toBe(200)
	})

	test('wrong PINs typed into the landing card: the 11th from one address is refused with the page and the PIN kept', async () => {
		const address = testAddress()
		const tryPin = async (pin: string, from: string) =>
			unwrap((await call(landing.action, formRequest('/auth', { intent: 'claim-pin', pin }), {}, from)).result)
		for (let i = 0; i < 10; i++) expect((await tryPin(`ZZZZ${String(2000 + i)}`, address)).status).toBe(400)
		const code = await createCode()
		const refused = await tryPin(code.pin, address)
		expect(refused.status).toBe(429)
		expect(refused.body).toMatchObject({ result: { initialValue: { pin: code.pin }, error: { pin: [TOO_MANY_ATTEMPTS] } } })
		// The code is untouched and can be validated from elsewhere.
		expect((await tryPin(code.pin, testAddress())).status).toBe(302)
	})

	test('JSON endpoints get a JSON 429', async () => {
		const ip = `198.51.100.${Math.floor(Math.random() * 250)}`
		for (let i = 0; i < 10; i++) await outcome(run(post('/api/pin/validate'), ip))
		expect(await outcome(run(post('/api/pin/validate'), ip))).toEqual({
			status: 429,
			body: { message: 'Too many attempts. Please wait a minute and try again.' },
		})
	})

	test('a window resets after it ends', async () => {
		const key = `test:${Math.random()}`
		expect((await hit(key, 1, 1)).allowed).toBe(true)
		expect((await hit(key, 1, 1)).allowed).toBe(false)
		await new Promise((r) => setTimeout(r, 1100))
		expect((await hit(key, 1, 1)).allowed).toBe(true)
	})
})

describe('methods', () => {
	test.each(['PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
		'a page answers %s with 405 and the methods it serves; JSON routes decide for themselves',
		async (method) => {
			for (const path of ['/', '/shop', '/dashboard', '/login', '/dashboard.data']) {
				const refused = await outcome(run(new Request(`http://localhost:3000${path}`, { method }), testAddress()))
				expect(refused.status).toBe(405)
			}
			expect((await outcome(run(new Request('http://localhost:3000/api/allergies/1', { method }), testAddress()))).status).toBe(200)
		},
	)
})

describe('origin check', () => {
	test('a post from another site is refused; same-origin and header-less posts pass', async () => {
		expect((await outcome(run(post('/api/auth/logout', { origin: 'https://evil.example' }), '192.0.2.1'))).status).toBe(403)
		expect((await outcome(run(post('/api/auth/logout', { 'sec-fetch-site': 'cross-site' }), '192.0.2.1'))).status).toBe(403)
		expect((await outcome(run(post('/api/auth/logout', { origin: 'http://localhost:3000' }), '192.0.2.1'))).status).toBe(200)
		expect((await outcome(run(post('/api/auth/logout'), '192.0.2.1'))).status).toBe(200)
	})

	test('every response carries the security headers', async () => {
		const response = await run(new Request('http://localhost:3000/'), '192.0.2.2')
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(response.headers.get('x-frame-options')).toBe('DENY')
		expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
	})
})

describe('caching', () => {
	const answer = async (cookie: string | null, routeHeaders: HeadersInit = {}) => {
		const context = new RouterContextProvider()
		context.set(clientAddressContext, testAddress())
		const request = new Request('http://localhost:3000/dashboard.data', { headers: cookie ? { cookie } : {} })
		const middleware = securityMiddleware as unknown as (args: object, next: () => Promise<Response>) => Promise<Response>
		return (await middleware({ request, context }, async () => new Response('ok', { headers: routeHeaders }))).headers
	}

	test('a page or .data answer for someone with a session is private and not stored; a route’s own private policy stays', async () => {
		expect((await answer('theme=dark; hmh_session=abc')).get('cache-control')).toBe('private, no-store')
		expect((await answer(null, { 'set-cookie': 'hmh_session=new' })).get('cache-control')).toBe('private, no-store')
		expect((await answer('hmh_session=abc', { 'cache-control': 'private, max-age=60' })).get('cache-control')).toBe('private, max-age=60')
		expect((await answer('hmh_session=abc', { 'cache-control': 'public, max-age=3600' })).get('cache-control')).toBe('private, no-store')
		expect((await answer('not_hmh_session=abc')).get('cache-control')).toBeNull()
	})

	test('HSTS is sent only when the public address is https', () => {
		const secure = new Headers()
		setSecurityHeaders(secure, true)
		expect(secure.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
		const plain = new Headers()
		setSecurityHeaders(plain, false)
		expect(plain.get('strict-transport-security')).toBeNull()
	})
})

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
	test('an address holding one is a 400 before any route runs, for pages and JSON alike', async () => {
		const get = (path: string) => new Request(`http://localhost:3000${path}`)
		expect(await outcome(run(get('/order-tracking?number=HMH-%00'), '192.0.2.2'))).toEqual({
			status: 400,
			body: 'This address contains a character that is not allowed.',
		})
		expect(await outcome(run(get('/api/qr-codes/%00'), '192.0.2.2'))).toEqual({
			status: 400,
			body: { message: 'This address contains a character that is not allowed.' },
		})
		expect((await outcome(run(get('/order-tracking?number=HMH-0000'), '192.0.2.2'))).status).toBe(200)
	})
})
