import { afterEach, describe, expect, test, vi } from 'vitest'
import { data, UNSAFE_ErrorResponseImpl as ErrorResponseImpl, type DataStrategyResult } from 'react-router'
import { OUTAGE_MESSAGE } from './database-outage.ts'
import {
	CLIENT_TOAST_EVENT,
	isNetworkFailure,
	keepPageWhenUnreachable,
	NO_CONNECTION,
	OFFLINE_FIELD,
	offlineFieldName,
} from './network-failure.ts'

describe('isNetworkFailure', () => {
	test.each([
		[new TypeError('Failed to fetch'), true],
		[new TypeError('NetworkError when attempting to fetch resource.'), true],
		[new TypeError('Load failed'), true],
		[new TypeError("Cannot read properties of undefined (reading 'x')"), false],
		[new Error('Failed to fetch'), false],
		[new Response(null, { status: 302, headers: { location: '/' } }), false],
	])('%s → %s', (error, expected) => {
		expect(isNetworkFailure(error)).toBe(expected)
	})
})

describe('keepPageWhenUnreachable', () => {
	afterEach(() => vi.unstubAllGlobals())

	function run(request: Request, results: Record<string, DataStrategyResult>) {
		const toasts: unknown[] = []
		const target = new EventTarget()
		target.addEventListener(CLIENT_TOAST_EVENT, (event) => toasts.push((event as CustomEvent).detail))
		vi.stubGlobal('window', target)
		const args = { request } as Parameters<typeof keepPageWhenUnreachable>[0]
		const answer = Promise.resolve(keepPageWhenUnreachable(args, async () => results)).then((r) => r as Record<string, DataStrategyResult>)
		return { toasts, answer }
	}
	const post = (fields: Record<string, string>, path = '/cart') =>
		new Request(`http://x${path}`, { method: 'POST', body: new URLSearchParams(fields) })
	const message = (title: string, description: string) => JSON.stringify({ title, description })

	test("passes the server's answers, its errors and every GET through untouched", async () => {
		const served = { 'routes/shop/cart': { type: 'data', result: { ok: true } } } as const
		expect(await run(post({ intent: 'checkout' }), { ...served }).answer).toEqual(served)
		const refused = { root: { type: 'error', result: new Error('Unexpected Server Error') } } as const
		expect(await run(post({ intent: 'checkout' }), { ...refused }).answer).toEqual(refused)
		const offlineLoad = run(new Request('http://x/shop'), { root: { type: 'error', result: data(new TypeError('Failed to fetch')) } })
		expect((await offlineLoad.answer).root!.type).toBe('error')
		expect(offlineLoad.toasts).toEqual([])
	})

	const checkoutForm = {
		[offlineFieldName('checkout')]: message('Checkout Failed', 'Failed to process checkout'),
		[offlineFieldName('apply-discount')]: message('Discount Code', 'Failed to validate discount code'),
	}
	test.each([
		['the message for the intent sent', { ...checkoutForm, intent: 'apply-discount' }, 'Discount Code', 'Failed to validate discount code'],
		['the same form, another intent', { ...checkoutForm, intent: 'checkout' }, 'Checkout Failed', 'Failed to process checkout'],
		[
			"the whole form's message",
			{ [OFFLINE_FIELD]: message('Signup Error', 'Unable to create account. Please try again.'), username: 'ada' },
			'Signup Error',
			'Unable to create account. Please try again.',
		],
		['no message declared', { intent: 'add-contact' }, NO_CONNECTION.title, NO_CONNECTION.description],
		['a message that is not one', { [OFFLINE_FIELD]: '{"title": 3', intent: 'x' }, NO_CONNECTION.title, NO_CONNECTION.description],
	])('a form sent while offline answers 503 with %s and a toast', async (_case, fields, title, description) => {
		const failed = data(new TypeError('Failed to fetch'), { status: 200 })
		const { answer, toasts } = run(post(fields), { 'routes/shop/cart': { type: 'error', result: failed } })
		expect((await answer)['routes/shop/cart']).toMatchObject({
			type: 'data',
			result: { data: { networkFailure: true, message: description }, init: { status: 503 } },
		})
		expect(toasts).toEqual([{ type: 'error', title, description }])
	})

	test('a form the server answered 503 because its database was down keeps the page too', async () => {
		const outage = new ErrorResponseImpl(503, 'Service Unavailable', { databaseOutage: true, message: OUTAGE_MESSAGE, form: null })
		const declaredForm = run(post({ [OFFLINE_FIELD]: message('Checkout Failed', 'Failed to process checkout') }), {
			root: { type: 'error', result: outage },
		})
		expect((await declaredForm.answer).root).toMatchObject({ type: 'data', result: { data: { networkFailure: true } } })
		expect(declaredForm.toasts).toEqual([{ type: 'error', title: 'Checkout Failed', description: 'Failed to process checkout' }])
		const plain = run(post({ intent: 'x' }), { root: { type: 'error', result: outage } })
		expect((await plain.answer).root!.type).toBe('data')
		expect(plain.toasts).toEqual([{ type: 'error', title: 'Temporarily Unavailable', description: OUTAGE_MESSAGE }])
		// Any other 503 (giving not set up, say) is the route's own answer.
		const other = new ErrorResponseImpl(503, 'Service Unavailable', 'Online giving is not set up on this server.')
		expect((await run(post({ intent: 'x' }), { root: { type: 'error', result: other } }).answer).root!.type).toBe('error')
	})
})
