import { describe, expect, test } from 'vitest'
import { readPageForm, UNREADABLE_FORM } from './request.server.ts'

const post = (type: string, body: BodyInit, headers: Record<string, string> = {}) =>
	new Request('http://x/cart', { method: 'POST', headers: { 'content-type': type, ...headers }, body })

async function refusal(request: Request) {
	const thrown: unknown = await readPageForm(request).then(
		() => null,
		(error: unknown) => error,
	)
	return thrown as { data: { message: string }; init: { status: number } } | null
}

describe('readPageForm', () => {
	test('reads urlencoded and multipart forms', async () => {
		expect((await readPageForm(post('application/x-www-form-urlencoded', 'intent=checkout&name=Ada'))).get('name')).toBe('Ada')
		const form = new FormData()
		form.set('intent', 'add')
		expect((await readPageForm(new Request('http://x/shop', { method: 'POST', body: form }))).get('intent')).toBe('add')
	})

	test.each([
		['JSON', 'application/json', '{"intent":"checkout"}'],
		['text', 'text/plain', 'intent=checkout'],
		['a broken multipart body', 'multipart/form-data; boundary=XX', 'no boundary here'],
	])('%s is a 400 with a message, not a crash', async (_, type, body) => {
		expect(await refusal(post(type, body))).toMatchObject({ data: { message: UNREADABLE_FORM }, init: { status: 400 } })
	})

	test('a body declared larger than any upload is a 413 before it is read', async () => {
		const answer = await refusal(post('application/x-www-form-urlencoded', 'a=1', { 'content-length': String(50 * 1024 * 1024) }))
		expect(answer?.init.status).toBe(413)
	})
})
