import { afterEach, describe, expect, test } from 'vitest'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { env } from '#app/utils/env.server.ts'
import { call, createUser, formRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import * as twoFactor from './two-factor.tsx'

const saved = env.OWNER_EMAIL
afterEach(() => {
	env.OWNER_EMAIL = saved
})

/** The owner, signed in, before two-factor sign-in is set up. */
async function post(fields: Record<string, string>, path = '/owner-panel/two-factor') {
	const owner = await createUser()
	env.OWNER_EMAIL = owner.email.toLowerCase()
	const { result } = await call(twoFactor.action, formRequest(path, fields, { cookie: await sessionCookie(owner.id) }))
	return unwrap(result)
}

describe('/owner-panel/two-factor action: one schema, every intent', () => {
	test('an unknown intent is a 400 with a message, never a redirect', async () => {
		const answer = await post({ intent: 'nope', code: '123456' })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ result: { error: { intent: [UNKNOWN_ACTION] } }, recoveryCodes: null })
		expect(answer.headers.get('location')).toBeNull()
	})

	test('a form without an intent is the code form: a missing code is refused beside the field, and a code is never sent back', async () => {
		const answer = await post({ code: '12' })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ result: { error: { code: ['Enter the 6-digit code from your authenticator app.'] } } })
		expect((answer.body as { result: { initialValue: object } }).result.initialValue).not.toHaveProperty('code')
	})

	test('Start Setup leads back to the page, also when the browser posted to its data address', async () => {
		for (const path of ['/owner-panel/two-factor?redirectTo=%2Fadmin', '/owner-panel/two-factor.data?redirectTo=%2Fadmin&_routes=x']) {
			const answer = await post({ intent: 'start' }, path)
			expect(answer.status).toBe(302)
			expect(answer.headers.get('location')).toBe('/owner-panel/two-factor?redirectTo=%2Fadmin')
		}
	})
})
