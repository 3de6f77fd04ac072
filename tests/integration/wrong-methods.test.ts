import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { env } from '#app/utils/env.server.ts'
import { appHandler, fullPath, routeModule, routeTable, serverErrors } from '#tests/app-handler.ts'
import { send } from '#tests/authorization-world.ts'
import { call, createUser, sessionCookie } from '#tests/factories.ts'

/**
 * An address that only takes a form (a route with an action and no page) answers every other method, a GET too, with
 * 405 and the methods it does take; a page without a form answers a post the same way. Through the app's own request
 * handler, as the owner (a session that presented ADMIN_TOKEN): the admin area's gate runs before any of this.
 */
const TABLE = routeTable()
const ROUTES = TABLE.filter((r) => r.path !== undefined || r.index).map((r) => ({ ...r, pattern: `/${fullPath(r, TABLE)}` }))

type Handler = (args: unknown) => unknown
const module = async (file: string) => (await routeModule(file)) as { loader?: Handler; action?: Handler; default?: unknown }

/** The methods a route's own code takes, as its answer to OPTIONS says (resource() routes); null when it has no such answer. */
async function ownMethods(loader: Handler, url: string) {
	const { result } = await call(loader, new Request(new URL(url, 'http://localhost:3000'), { method: 'OPTIONS' }))
	return result instanceof Response && result.status === 204 ? (result.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean) : null
}

/** An address of the route: every parameter 1, an optional one left out. */
const addressOf = (pattern: string) => pattern.replace(/\/:[^/]+\?/g, '').replace(/:[^/]+/g, '1')

/** The routes that take a form and serve no GET: no page, and no loader or one (resource()) whose methods leave GET out. */
async function formOnlyRoutes() {
	const found: Array<{ pattern: string; url: string; methods: string[] }> = []
	for (const route of ROUTES) {
		const { loader, action, default: page } = await module(route.file)
		if (!action || page) continue
		const url = addressOf(route.pattern)
		const methods = loader ? await ownMethods(loader, url) : []
		if (methods && !methods.includes('GET')) found.push({ pattern: route.pattern, url, methods })
	}
	return found
}

let owner: string
const saved = { ADMIN_TOKEN: env.ADMIN_TOKEN }

beforeAll(async () => {
	env.ADMIN_TOKEN = 'wrong-methods-admin-token-0123456789abcdef'
	await appHandler()
	const someone = await createUser()
	owner = await sessionCookie(someone.id, { adminTokenValid: true, adminTokenUserId: someone.id })
})
afterAll(() => Object.assign(env, saved))

describe('an address that only takes a form', () => {
	test('the admin actions are among them', async () => {
		const patterns = (await formOnlyRoutes()).map((r) => r.pattern)
		expect(patterns).toEqual(expect.arrayContaining(['/admin/notify-visitors', '/admin/orders/seen', '/api/auth/logout']))
	})

	test('answers GET, HEAD and a method it does not take (PUT, or else PATCH) with 405 and the methods it takes', async () => {
		const problems: string[] = []
		for (const { pattern, url, methods } of await formOnlyRoutes()) {
			serverErrors.length = 0
			const other = ['PUT', 'PATCH', 'DELETE'].find((method) => !methods.includes(method))!
			for (const method of ['GET', 'HEAD', other]) {
				const answer = await send(method, url, owner)
				const allow = answer.headers.get('allow') ?? ''
				if (answer.status !== 405) problems.push(`${method} ${pattern}: ${answer.status} ${answer.text.slice(0, 80)}`)
				else if (!allow || (method !== other && /\b(GET|HEAD)\b/.test(allow)))
					problems.push(`${method} ${pattern}: Allow ${JSON.stringify(allow)}`)
				if (answer.text.includes('Unexpected Server Error')) problems.push(`${method} ${pattern}: ${answer.text}`)
			}
			for (const error of serverErrors) problems.push(`${pattern}: the server failed: ${String(error)}`)
		}
		expect(problems, problems.join('\n')).toEqual([])
	})

	test('the admin actions name POST alone, whatever reaches them (their own answer, below the root middleware)', async () => {
		for (const file of ['routes/admin/notify-visitors.ts', 'routes/admin/orders-seen.ts']) {
			const { loader, action } = await module(file)
			for (const [handler, method] of [
				[loader!, 'GET'],
				[loader!, 'HEAD'],
				[action!, 'PUT'],
				[action!, 'DELETE'],
			] as const) {
				const { result } = await call(handler, new Request('http://localhost:3000/admin/x', { method }))
				const response = result instanceof Response ? result : null
				expect({ file, method, status: (result as { init?: { status?: number } }).init?.status ?? response?.status }).toEqual({
					file,
					method,
					status: 405,
				})
			}
		}
	})

	test('the admin actions still take their form', async () => {
		const seen = await send('POST', '/admin/orders/seen', owner, { form: { seenAt: new Date().toISOString() } })
		expect(seen).toMatchObject({ status: 302, location: '/admin' })
	})
})

describe('a page without a form', () => {
	test('answers a post with 405 naming GET and HEAD', async () => {
		for (const path of ['/admin/traffic', '/admin/traffic.data', '/team']) {
			const answer = await send('POST', path, owner, { form: {} })
			expect({ path, status: answer.status, allow: answer.headers.get('allow') }).toEqual({ path, status: 405, allow: 'GET, HEAD' })
		}
	})
})
