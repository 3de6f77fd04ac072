import { describe, expect, test } from 'vitest'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { call, createUser, formRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import * as batchFile from './batch-file.ts'
import { qrManagementAction } from './qr-management.server.ts'

async function post(fields: Record<string, string>) {
	const owner = await createUser()
	const cookie = await sessionCookie(owner.id, { adminTokenValid: true, adminTokenUserId: owner.id })
	const { result, context } = await call(qrManagementAction, formRequest('/admin/qr-management', fields, { cookie }))
	return { ...(await unwrap(result)), toast: context.get(requestToastContext) }
}

describe('/admin/qr-management action: one schema, every intent', () => {
	test('an unknown or missing intent is a 400 with a message, never a silent redirect', async () => {
		for (const fields of [{ intent: 'nope' }, {}] as Record<string, string>[]) {
			const answer = await post(fields)
			expect(answer.status).toBe(400)
			expect(answer.body).toMatchObject({ result: { error: { intent: [UNKNOWN_ACTION] } } })
			expect(answer.headers.get('location')).toBeNull()
		}
	})

	test('a request id that is not one is refused beside the request, with what was typed kept', async () => {
		const answer = await post({ intent: 'fulfil', requestId: 'abc', qrCodeIds: '12, 13' })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({
			intent: 'fulfil',
			result: {
				error: { requestId: ['QR request not found'] },
				initialValue: { intent: 'fulfil', requestId: 'abc', qrCodeIds: '12, 13' },
			},
		})
	})

	test('a request gone since the page was drawn is refused on the page, beside its codes, with a toast', async () => {
		const answer = await post({ intent: 'fulfil', requestId: '999999999', qrCodeIds: '12' })
		expect(answer.status).toBe(404)
		expect(answer.body).toMatchObject({ intent: 'fulfil', result: { error: { qrCodeIds: [expect.any(String)] } } })
		expect(answer.toast).toMatchObject({ type: 'error', title: 'Fulfillment Failed' })
	})

	test('self-generation takes on=true or on=false only', async () => {
		const answer = await post({ intent: 'legacy', userId: 'someone', on: 'maybe' })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ intent: 'legacy', result: { error: { on: expect.any(Array) } } })
	})
})

describe('/admin/qr-management/batch action: the batch form, answered by its file', () => {
	async function batch(fields: Record<string, string>) {
		const owner = await createUser()
		const cookie = await sessionCookie(owner.id, { adminTokenValid: true, adminTokenUserId: owner.id })
		return call(batchFile.action, formRequest('/admin/qr-management/batch', fields, { cookie }))
	}

	test('an unknown button is a 400 with a message, never a redirect', async () => {
		const answer = await unwrap((await batch({ intent: 'nope', count: '1' })).result)
		expect(answer.status).toBe(400)
		expect(answer.body).toEqual({ message: UNKNOWN_ACTION })
		expect(answer.headers.get('location')).toBeNull()
	})

	test('a refused quantity goes back to the page with what was typed, the field at fault and a toast', async () => {
		const { result } = await batch({ intent: 'generate', count: '0', format: 'pdf', layout: 'letter-grid', nudgeXMm: '1', nudgeYMm: '' })
		expect(result).toHaveRedirect('/admin/qr-management?count=0&format=pdf&layout=letter-grid&nudgeXMm=1&nudgeYMm=&error=count#batch-title')
		await expect(result).toSendToast({ title: 'Invalid Quantity' })
	})

	test('the calibration page takes no quantity, and a form without a button generates', async () => {
		const calibration = await unwrap((await batch({ intent: 'calibration', count: 'x', format: 'pdf', layout: 'letter-grid' })).result)
		expect(calibration.headers.get('content-disposition')).toMatch(/^attachment/)
		const plain = await unwrap((await batch({ count: '1', format: 'svg', layout: 'letter-grid' })).result)
		expect(plain.headers.get('content-disposition')).toMatch(/^attachment/)
	})
})
