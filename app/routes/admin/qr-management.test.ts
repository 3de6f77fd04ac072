import { describe, expect, test } from 'vitest'
import { UNKNOWN_ACTION } from '#app/domain/admin/schemas.ts'
import { call, createUser, formRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import { qrManagementAction } from './qr-management.server.ts'

async function post(fields: Record<string, string>) {
	const owner = await createUser()
	const cookie = await sessionCookie(owner.id, { adminTokenValid: true, adminTokenUserId: owner.id })
	const { result } = await call(qrManagementAction, formRequest('/admin/qr-management', fields, { cookie }))
	return unwrap(result)
}

describe('/admin/qr-management action: one schema, every intent', () => {
	test('an unknown or missing intent is a 400 with a message, never a silent redirect', async () => {
		for (const fields of [{ intent: 'nope' }, {}] as Record<string, string>[]) {
			const answer = await post(fields)
			expect(answer.status).toBe(400)
			expect(answer.body).toMatchObject({ error: UNKNOWN_ACTION })
			expect(answer.headers.get('location')).toBeNull()
		}
	})

	test('a request id that is not one is refused beside the request, with what was typed kept', async () => {
		const answer = await post({ intent: 'fulfil', requestId: 'abc', qrCodeIds: '12, 13' })
		expect(answer.status).toBe(400)
		expect(answer.body).toEqual({
			intent: 'fulfil',
			error: 'QR request not found',
			field: 'requestId',
			values: { intent: 'fulfil', requestId: 'abc', qrCodeIds: '12, 13' },
		})
	})

	test('self-generation takes on=true or on=false only', async () => {
		const answer = await post({ intent: 'legacy', userId: 'someone', on: 'maybe' })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ intent: 'legacy', field: 'on' })
	})
})
