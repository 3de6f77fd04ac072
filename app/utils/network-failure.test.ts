import { afterEach, describe, expect, test, vi } from 'vitest'
import { CLIENT_TOAST_EVENT, isNetworkFailure, serverActionOrToast } from './network-failure.ts'

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

describe('serverActionOrToast', () => {
	afterEach(() => vi.unstubAllGlobals())

	test("passes the server's answer and its redirects through untouched", async () => {
		vi.stubGlobal('window', new EventTarget())
		await expect(serverActionOrToast(async () => ({ ok: true }), { title: 'T', description: 'D' })).resolves.toEqual({ ok: true })
		const redirect = new Response(null, { status: 302 })
		await expect(serverActionOrToast(() => Promise.reject(redirect), { title: 'T', description: 'D' })).rejects.toBe(redirect)
	})

	test('a lost connection becomes a 503 answer with the message, and a toast', async () => {
		const target = new EventTarget()
		const toasts: unknown[] = []
		target.addEventListener(CLIENT_TOAST_EVENT, (event) => toasts.push((event as CustomEvent).detail))
		vi.stubGlobal('window', target)
		const result = await serverActionOrToast(() => Promise.reject(new TypeError('Failed to fetch')), { title: 'Checkout Failed', description: 'Failed to process checkout' })
		expect(result).toMatchObject({ data: { networkFailure: true, message: 'Failed to process checkout' }, init: { status: 503 } })
		expect(toasts).toEqual([{ type: 'error', title: 'Checkout Failed', description: 'Failed to process checkout' }])
	})
})
