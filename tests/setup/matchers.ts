import { expect } from 'vitest'
import { getToast } from '#app/utils/toast.server.ts'
import type { Toast } from '#app/utils/toast.ts'

type Answer = { status: number; headers: Headers }

/**
 * Assertions on what a route answered, read from the response itself (status, Location, the toast's cookie) as a
 * browser would get it: `expect(response).toHaveRedirect('/auth')`, `await expect(response).toSendToast({ title })`.
 */
expect.extend({
	toHaveRedirect(received: Answer, expected?: string | RegExp) {
		const location = received.headers.get('location')
		const redirected = received.status >= 300 && received.status < 400 && location !== null
		const matches =
			expected === undefined || (location !== null && (typeof expected === 'string' ? location === expected : expected.test(location)))
		return {
			pass: redirected && matches,
			message: () =>
				`expected ${this.isNot ? 'no ' : 'a '}redirect${expected === undefined ? '' : ` to ${String(expected)}`}, got ${received.status}${location ? ` to ${location}` : ' without a Location'}`,
		}
	},
	async toSendToast(received: Answer, expected: Partial<Toast>) {
		const cookie = received.headers
			.getSetCookie()
			.find((c) => c.startsWith('hmh_toast='))
			?.split(';')[0]
		const { toast } = cookie ? await getToast(new Request('http://localhost/', { headers: { cookie } })) : { toast: null }
		const pass = toast !== null && this.equals(toast, expect.objectContaining(expected))
		return {
			pass,
			message: () =>
				`expected ${this.isNot ? 'no ' : 'a '}toast like ${this.utils.stringify(expected)}, got ${toast ? this.utils.stringify(toast) : 'none'}`,
		}
	},
})

interface AnswerMatchers<R = unknown> {
	/** A 3xx answer with a Location header, equal to (or matching) the one given. */
	toHaveRedirect: (expected?: string | RegExp) => R
	/** The answer sets the toast cookie with a toast containing these fields. */
	toSendToast: (expected: Partial<Toast>) => Promise<R>
}

declare module 'vitest' {
	// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
	interface Matchers<T = any> extends AnswerMatchers<T> {}
}
