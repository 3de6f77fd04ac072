import { afterEach, describe, expect, test, vi } from 'vitest'
import { data, type DataStrategyResult } from 'react-router'
import { CLIENT_TOAST_EVENT, isNetworkFailure, keepPageWhenUnreachable } from './network-failure.ts'

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
	const post = (intent: string, path = '/cart') => new Request(`http://x${path}`, { method: 'POST', body: new URLSearchParams({ intent }) })

	test("passes the server's answers, its errors and every GET through untouched", async () => {
		const served = { 'routes/shop/cart': { type: 'data', result: { ok: true } } } as const
		expect(await run(post('checkout'), { ...served }).answer).toEqual(served)
		const refused = { root: { type: 'error', result: new Error('Unexpected Server Error') } } as const
		expect(await run(post('checkout'), { ...refused }).answer).toEqual(refused)
		const offlineLoad = run(new Request('http://x/shop'), { root: { type: 'error', result: data(new TypeError('Failed to fetch')) } })
		expect((await offlineLoad.answer).root!.type).toBe('error')
		expect(offlineLoad.toasts).toEqual([])
	})

	test.each([
		['checkout', '/cart.data', 'Checkout Failed', 'Failed to process checkout'],
		['apply-discount', '/cart', 'Discount Code', 'Failed to validate discount code'],
		['add-contact', '/dashboard.data', 'No Connection', 'The connection to the server failed, so this may not have been saved. Check your connection and try again.'],
		['delete-profile', '/dashboard.data', 'Error', 'Failed to delete profile. Please try again.'],
		['toggle', '/dashboard/qr-codes.data', 'Error', 'Failed to toggle QR code status'],
		['delete-account', '/dashboard/profile.data', 'Deletion Failed', 'Failed to delete account. Please try again.'],
		['', '/signup.data', 'Signup Error', 'Unable to create account. Please try again.'],
		['', '/claim/ABCD2345.data', 'Claim Failed', 'Failed to claim QR code'],
		['', '/request-qr.data', 'Request Failed', 'Failed to submit request. Please try again.'],
	])('"%s" to %s sent while offline answers 503 with its message and a toast', async (intent, path, title, description) => {
		const failed = data(new TypeError('Failed to fetch'), { status: 200 })
		const { answer, toasts } = run(post(intent, path), { 'routes/shop/cart': { type: 'error', result: failed } })
		expect((await answer)['routes/shop/cart']).toMatchObject({ type: 'data', result: { data: { networkFailure: true, message: description }, init: { status: 503 } } })
		expect(toasts).toEqual([{ type: 'error', title, description }])
	})
})
