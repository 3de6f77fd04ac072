import { describe, expect, test } from 'vitest'
import { RouterContextProvider } from 'react-router'
import { securityMiddleware } from '#app/middleware/security.server.ts'
import { hit } from '#app/utils/rate-limit.server.ts'
import { clientAddressContext } from '#app/utils/request.server.ts'

function run(request: Request, ip: string) {
	const context = new RouterContextProvider()
	context.set(clientAddressContext, ip)
	const next = async () => new Response('ok')
	return (securityMiddleware as unknown as (args: { request: Request; context: RouterContextProvider }, n: typeof next) => Promise<Response>)(
		{ request, context },
		next,
	)
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

const post = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost:3000${path}`, { method: 'POST', headers })

describe('rate limits (PostgreSQL counters)', () => {
	test('the strict tier refuses the 11th sign-in attempt a minute from one address, not from another', async () => {
		const ip = `203.0.113.${Math.floor(Math.random() * 250)}`
		for (let i = 0; i < 10; i++) expect((await outcome(run(post('/login'), ip))).status).toBe(200)
		const refused = await outcome(run(post('/login'), ip))
		expect(refused.status).toBe(429)
		expect(refused.body).toBe('Too many attempts. Please wait a minute and try again.')
		expect((await outcome(run(post('/login'), `${ip}1`))).status).toBe(200)
	})

	test('JSON endpoints get a JSON 429', async () => {
		const ip = `198.51.100.${Math.floor(Math.random() * 250)}`
		for (let i = 0; i < 10; i++) await outcome(run(post('/api/pin/validate'), ip))
		expect(await outcome(run(post('/api/pin/validate'), ip))).toEqual({ status: 429, body: { message: 'Too many attempts. Please wait a minute and try again.' } })
	})

	test('a window resets after it ends', async () => {
		const key = `test:${Math.random()}`
		expect((await hit(key, 1, 1)).allowed).toBe(true)
		expect((await hit(key, 1, 1)).allowed).toBe(false)
		await new Promise((r) => setTimeout(r, 1100))
		expect((await hit(key, 1, 1)).allowed).toBe(true)
	})
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

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
	test('an address holding one is a 400 before any route runs, for pages and JSON alike', async () => {
		const get = (path: string) => new Request(`http://localhost:3000${path}`)
		expect(await outcome(run(get('/order-tracking?number=HMH-%00'), '192.0.2.2'))).toEqual({ status: 400, body: 'This address contains a character that is not allowed.' })
		expect(await outcome(run(get('/api/qr-codes/%00'), '192.0.2.2'))).toEqual({ status: 400, body: { message: 'This address contains a character that is not allowed.' } })
		expect((await outcome(run(get('/order-tracking?number=HMH-0000'), '192.0.2.2'))).status).toBe(200)
	})
})
