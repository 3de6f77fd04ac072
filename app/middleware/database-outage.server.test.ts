import { RouterContextProvider } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { isDataResult } from '#app/utils/http.ts'
import { type DatabaseOutage, OUTAGE_MESSAGE } from '#app/utils/database-outage.ts'
import { isDatabaseUnavailable, noteDatabaseError } from '#app/utils/database-outage.server.ts'
import { databaseOutageMiddleware, outageHeadersMiddleware } from './database-outage.server.ts'

/** postgres.js's errors as Drizzle hands them on: the driver's error is the cause. */
const wrapped = (cause: Error) => new Error('Failed query: select 1', { cause })
const refused = () => wrapped(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
const postgresError = (code: string) => wrapped(Object.assign(new Error('terminating connection'), { name: 'PostgresError', code }))

describe('isDatabaseUnavailable', () => {
	test.each([
		['connection refused', refused(), true],
		['connection closed (postgres.js)', wrapped(Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' })), true],
		['server shutting down (57P01)', postgresError('57P01'), true],
		['server starting up (57P03)', postgresError('57P03'), true],
		['connection exception (08006)', postgresError('08006'), true],
		['a unique violation', postgresError('23505'), false],
		['a syntax error', postgresError('42601'), false],
		['a plain error', new Error('boom'), false],
		['a thrown Response', new Response(null, { status: 404 }), false],
		['nothing', null, false],
	])('%s → %s', (_, error, expected) => {
		expect(isDatabaseUnavailable(error)).toBe(expected)
	})
})

type Args = Parameters<typeof databaseOutageMiddleware>[0]

/** The pair of root middlewares around `next`, as React Router runs them; the thrown 503 comes back as data(). */
async function run(request: Request, next: (context: RouterContextProvider) => Promise<Response>) {
	const context = new RouterContextProvider()
	const args = { request, params: {}, context, url: new URL(request.url), pattern: '' } as unknown as Args
	let thrown: unknown = null
	const response = (await outageHeadersMiddleware(args, async () => {
		try {
			return (await databaseOutageMiddleware(args, () => next(context))) as Response
		} catch (error) {
			if (!isDataResult(error)) throw error
			thrown = error
			// What React Router does with it: the root ErrorBoundary renders, with the thrown status.
			return new Response('<html>error screen</html>', { status: error.init?.status ?? 500 })
		}
	})) as Response
	return { response, thrown: thrown as { data: DatabaseOutage } | null }
}

/** A route that fails on the database: React Router renders a 500 and reports the error to handleError. */
const failingPage = (type: string) => async (context: RouterContextProvider) => {
	noteDatabaseError(refused(), context)
	await Promise.resolve()
	return new Response('<html>500</html>', { status: 500, headers: { 'content-type': type } })
}

describe('the outage middleware', () => {
	afterEach(() => vi.restoreAllMocks())

	test('a page form sent without JavaScript: 503 with Retry-After, and what was typed comes back, passwords excepted', async () => {
		const body = new URLSearchParams({ email: 'ada@example.com', password: 'secret-1!', intent: 'sign-in', productId: '3', website: '' })
		const request = new Request('http://localhost/login', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.toString().length) },
			body,
		})
		const { response, thrown } = await run(request, async (context) => {
			await request.formData() // the action reads the body
			return failingPage('text/html; charset=utf-8')(context)
		})
		expect(response.status).toBe(503)
		expect(response.headers.get('retry-after')).toBe('5')
		expect(response.headers.get('cache-control')).toBe('no-store')
		expect(thrown?.data).toEqual({
			databaseOutage: true,
			message: OUTAGE_MESSAGE,
			form: {
				action: '/login',
				enctype: 'application/x-www-form-urlencoded',
				files: [],
				fields: [
					{ name: 'email', value: 'ada@example.com', kind: 'shown' },
					{ name: 'password', value: '', kind: 'secret' },
					{ name: 'intent', value: 'sign-in', kind: 'hidden' },
					{ name: 'productId', value: '3', kind: 'hidden' },
					{ name: 'website', value: '', kind: 'hidden' },
				],
			},
		})
	})

	test('a JSON endpoint whose middleware failed on the database: 503 JSON with Retry-After', async () => {
		const request = new Request('http://localhost/api/create-shop-order', { method: 'POST', body: '{}' })
		const { response } = await run(request, async () => {
			throw refused()
		})
		expect(response.status).toBe(503)
		expect(response.headers.get('retry-after')).toBe('5')
		expect(await response.json()).toEqual({ message: OUTAGE_MESSAGE })
	})

	test('a SMART Health Link viewer on another site: 503 JSON it may read (CORS), with Retry-After', async () => {
		const request = new Request('http://localhost/shl/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', {
			method: 'POST',
			headers: { origin: 'https://viewer.example', 'content-type': 'application/json' },
			body: '{"recipient":"Dr. Who"}',
		})
		const { response } = await run(request, async () => {
			throw refused()
		})
		expect(response.status).toBe(503)
		expect(response.headers.get('retry-after')).toBe('5')
		expect(response.headers.get('access-control-allow-origin')).toBe('*')
		expect(await response.json()).toEqual({ message: OUTAGE_MESSAGE })
	})

	test('the responder page (a resource route): a page of its own that reloads by itself', async () => {
		const { response } = await run(new Request('http://localhost/scan/abcdefghijklmnopqrstuv'), failingPage('text/plain'))
		expect(response.status).toBe(503)
		expect(response.headers.get('retry-after')).toBe('5')
		const html = await response.text()
		expect(html).toContain('<meta http-equiv="refresh" content="5">')
		expect(html).toContain(OUTAGE_MESSAGE)
	})

	test('other failures and answers pass through untouched', async () => {
		const page = await run(new Request('http://localhost/shop'), async () => new Response('<html>500</html>', { status: 500 }))
		expect(page.response.status).toBe(500)
		expect(page.response.headers.get('retry-after')).toBeNull()
		const boom = new Error('boom')
		await expect(
			run(new Request('http://localhost/api/products'), async () => {
				throw boom
			}),
		).rejects.toBe(boom)
		const fine = await run(new Request('http://localhost/shop'), async () => new Response('ok'))
		expect(fine.response.status).toBe(200)
	})
})
