import { expect, test } from 'vitest'
import { DomainError } from '#app/utils/errors.ts'
import { resource } from './resource.server.ts'

type Args = { request: Request; params: { id?: string } }
const call = async (route: { loader: (args: Args) => unknown; action: (args: Args) => unknown }, method: string, id?: string) => {
	const args = { request: new Request('http://localhost/api/things', { method }), params: { id } }
	const answer = await (method === 'GET' || method === 'HEAD' ? route.loader(args) : route.action(args))
	if (answer instanceof Response) return { status: answer.status, allow: answer.headers.get('allow'), body: await answer.text() }
	const { data, init } = answer as { data: unknown; init: ResponseInit }
	return { status: init.status, allow: new Headers(init.headers).get('allow'), body: JSON.stringify(data) }
}

test('each method goes to its handler; HEAD to GET', async () => {
	const route = resource<Args>({ GET: () => new Response('list'), POST: () => new Response('created', { status: 201 }) })
	expect(await call(route, 'GET')).toMatchObject({ status: 200, body: 'list' })
	expect(await call(route, 'HEAD')).toMatchObject({ status: 200 })
	expect(await call(route, 'POST')).toMatchObject({ status: 201, body: 'created' })
})

test.each(['PUT', 'PATCH', 'DELETE', 'PROPFIND'])('%s without a handler is a 405 naming the methods there are', async (method) => {
	const route = resource<Args>({ GET: () => new Response('list'), POST: () => new Response('created') })
	expect(await call(route, method)).toEqual({ status: 405, allow: 'GET, POST', body: JSON.stringify({ message: 'Method not allowed' }) })
})

test('OPTIONS is a 204 naming the methods there are, in the order the route gives them', async () => {
	const route = resource<Args>({ PUT: () => new Response('put'), GET: () => new Response('one') })
	expect(await call(route, 'OPTIONS')).toEqual({ status: 204, allow: 'PUT, GET', body: '' })
	expect(await call(route, 'DELETE')).toMatchObject({ status: 405, allow: 'PUT, GET' })
})

test('a route without GET answers GET and HEAD with 405 too', async () => {
	const route = resource<Args>({ POST: () => new Response('ok') })
	expect(await call(route, 'GET')).toMatchObject({ status: 405, allow: 'POST' })
	expect(await call(route, 'HEAD')).toMatchObject({ status: 405, allow: 'POST' })
})

test('the handlers may depend on the request: a collection and its items', async () => {
	const route = resource<Args>(({ params }) =>
		params.id === undefined ? { GET: () => new Response('all') } : { PUT: () => new Response(`put ${params.id}`) },
	)
	expect(await call(route, 'GET')).toMatchObject({ status: 200, body: 'all' })
	expect(await call(route, 'PUT', '7')).toMatchObject({ status: 200, body: 'put 7' })
	expect(await call(route, 'GET', '7')).toMatchObject({ status: 405, allow: 'PUT' })
	expect(await call(route, 'PUT')).toMatchObject({ status: 405, allow: 'GET' })
})

test('a refusal a handler throws is its status and message as JSON, with Retry-After when it says when', async () => {
	const route = resource<Args>({
		GET: () => {
			throw new DomainError(429, 'Too many attempts', undefined, 42)
		},
		POST: () => {
			throw new DomainError(409, 'Already claimed', 'pin')
		},
	})
	const limited = (await route.loader({ request: new Request('http://localhost/api/things'), params: {} })) as Response
	expect([limited.status, limited.headers.get('retry-after'), await limited.json()]).toEqual([429, '42', { message: 'Too many attempts' }])
	const conflict = (await route.action({ request: new Request('http://localhost/api/things', { method: 'POST' }), params: {} })) as Response
	expect([conflict.status, await conflict.json()]).toEqual([409, { message: 'Already claimed' }])
})

test('a refusal of what was sent in one field names the field, as a schema refusal does', async () => {
	const route = resource<Args>({
		POST: () => {
			throw new DomainError(400, 'Add an email address to alert this contact', 'alertOptIn')
		},
		PUT: () => {
			throw new DomainError(413, 'This file is too large. The limit is 5 MB.', 'cardFrontPhoto')
		},
	})
	const request = (method: string) => ({ request: new Request('http://localhost/api/things', { method }), params: {} })
	const invalid = (await route.action(request('POST'))) as Response
	expect([invalid.status, await invalid.json()]).toEqual([
		400,
		{ message: 'Add an email address to alert this contact', errors: { alertOptIn: ['Add an email address to alert this contact'] } },
	])
	const tooLarge = (await route.action(request('PUT'))) as Response
	expect([tooLarge.status, await tooLarge.json()]).toEqual([
		413,
		{ message: 'This file is too large. The limit is 5 MB.', errors: { cardFrontPhoto: ['This file is too large. The limit is 5 MB.'] } },
	])
})

test('anything else a handler throws is thrown on', async () => {
	const route = resource<Args>({
		GET: () => {
			throw new TypeError('bug')
		},
	})
	await expect(route.loader({ request: new Request('http://localhost/api/things'), params: {} })).rejects.toThrow('bug')
})
