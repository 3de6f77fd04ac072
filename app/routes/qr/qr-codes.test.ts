import { describe, expect, test } from 'vitest'
import { createUser, call, formRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import * as qrPage from './qr-codes.tsx'

describe('QR Codes tab action', () => {
	test('an intent no form posts is a 400 naming it, with the message on the form', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		for (const intent of ['explode', 'save-profile']) {
			const { result } = await call(qrPage.action, formRequest('/dashboard/qr-codes', { intent, codeId: '1' }, { cookie }))
			expect(await unwrap(result)).toMatchObject({
				status: 400,
				body: { intent, result: { status: 'error', error: { '': ['Unknown action'] } } },
			})
		}
		const { result } = await call(qrPage.action, formRequest('/dashboard/qr-codes', { codeId: '1' }, { cookie }))
		expect(await unwrap(result)).toMatchObject({ status: 400, body: { intent: '', result: { error: { '': ['Unknown action'] } } } })
	})

	test('a known intent about a code that is not the caller’s is a 404', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		for (const codeId of ['999999999', 'abc', '']) {
			const { result } = await call(qrPage.action, formRequest('/dashboard/qr-codes', { intent: 'toggle', codeId }, { cookie }))
			expect((await unwrap(result)).status, codeId).toBe(404)
		}
	})
})
