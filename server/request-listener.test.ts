import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { log } from '../app/utils/log.server.ts'
import { createRequestListener } from './request-listener.ts'

let server: Server
let port: number
const seen: string[] = []

beforeAll(async () => {
	const listener = createRequestListener(
		async (request) => {
			seen.push(request.url)
			if (request.method !== 'POST') return new Response('ok')
			const body = await request.text().catch(() => null)
			return body === null ? new Response('too large', { status: 413 }) : new Response(`${body.length}`)
		},
		{ maxBodyBytes: 1024, log },
	)
	server = createServer(listener)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function send(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer[] }) {
	return new Promise<{ status: number; text: string }>((resolve, reject) => {
		const req = httpRequest(
			{ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/', headers: options.headers },
			(res) => {
				let text = ''
				res.on('data', (chunk) => (text += chunk))
				res.on('end', () => resolve({ status: res.statusCode!, text }))
			},
		)
		req.on('error', reject)
		if (Array.isArray(options.body)) for (const chunk of options.body) req.write(chunk)
		else if (options.body) req.write(options.body)
		req.end()
	})
}

test('a path with broken percent-encoding is a 400 before the app sees it (nothing logs the path)', async () => {
	const before = seen.length
	expect(await send({ path: '/scan/SECRET-TOKEN%ZZ' })).toMatchObject({ status: 400, text: 'Bad Request: this address is not valid.' })
	expect(seen.length).toBe(before)
	expect((await send({ path: '/scan/caf%C3%A9' })).status).toBe(200)
})

test('a method Fetch cannot represent is answered 405 and the server keeps answering', async () => {
	expect((await send({ method: 'TRACE' })).status).toBe(405)
	expect((await send({ method: 'PROPFIND' })).status).toBe(405)
	expect(await send({})).toEqual({ status: 200, text: 'ok' })
})

test('a Host header that is no host is answered as localhost', async () => {
	for (const host of ['localhost:99999', '[', 'a b', 'localhost:-1']) {
		seen.length = 0
		expect((await send({ headers: { host } })).status).toBe(200)
		expect(seen).toEqual(['http://localhost/'])
	}
})

test('a path beginning with two slashes stays a path on this host', async () => {
	seen.length = 0
	await send({ path: '//elsewhere.example/x', headers: { host: 'example.org' } })
	expect(seen).toEqual(['http://example.org//elsewhere.example/x'])
})

test('a body over the cap, declared or chunked, is refused without reading it all', async () => {
	expect((await send({ method: 'POST', headers: { 'content-length': '2048' }, body: 'x'.repeat(2048) })).status).toBe(413)
	const chunked = await send({
		method: 'POST',
		headers: { 'transfer-encoding': 'chunked' },
		body: Array.from({ length: 64 }, () => Buffer.alloc(512, 120)),
	})
	expect(chunked.status).toBe(413)
	expect(await send({ method: 'POST', body: 'x'.repeat(1000) })).toEqual({ status: 200, text: '1000' })
})

test('a client that leaves while a page is still streaming costs its request only, not the server', async () => {
	// A page as entry.server.tsx streams it: React writes into a PassThrough, handed over as a web stream.
	const streams: PassThrough[] = []
	const listener = createRequestListener(
		async () => {
			const body = new PassThrough()
			streams.push(body)
			body.write('<!DOCTYPE html><html><head></head><body>')
			const more = setInterval(() => body.write('<p>more</p>'.repeat(100)), 5)
			body.once('close', () => clearInterval(more))
			return new Response(createReadableStreamFromReadable(body), { headers: { 'content-type': 'text/html' } })
		},
		{ maxBodyBytes: 1024, log },
	)
	const streaming = createServer(listener)
	await new Promise<void>((resolve) => streaming.listen(0, '127.0.0.1', resolve))
	const uncaught: unknown[] = []
	const onUncaught = (error: unknown) => uncaught.push(error)
	process.prependListener('uncaughtException', onUncaught)
	try {
		await new Promise<void>((resolve) => {
			const req = httpRequest({ host: '127.0.0.1', port: (streaming.address() as AddressInfo).port, path: '/' }, (res) => {
				res.once('data', () => {
					req.destroy()
					resolve()
				})
			})
			req.on('error', () => undefined)
			req.end()
		})
		await new Promise((resolve) => setTimeout(resolve, 100))
		expect(uncaught).toEqual([])
		expect(streams[0]!.destroyed).toBe(true)
	} finally {
		process.off('uncaughtException', onUncaught)
		await new Promise<void>((resolve) => streaming.close(() => resolve()))
	}
})
