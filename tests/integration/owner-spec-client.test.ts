import { randomBytes, randomUUID } from 'node:crypto'
import { afterEach, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { submitQrRequest } from '#app/domain/requests/requests.server.ts'
import * as assignApi from '#app/routes/api/admin-order-assign.ts'
import * as consentApi from '#app/routes/api/admin-consent-records.ts'
import * as detailsApi from '#app/routes/api/admin-order-details.ts'
import * as generateApi from '#app/routes/api/admin-generate-batch.ts'
import * as ordersApi from '#app/routes/api/admin-orders.ts'
import * as fulfillApi from '#app/routes/api/admin-qr-request-fulfill.ts'
import * as requestsApi from '#app/routes/api/admin-qr-requests.ts'
import * as statsApi from '#app/routes/api/admin-qr-stats.ts'
import * as statusApi from '#app/routes/api/admin-order-status.ts'
import * as notifyApi from '#app/routes/api/notify-visitors.ts'
import * as validateApi from '#app/routes/api/validate-admin-token.ts'
import { env } from '#app/utils/env.server.ts'
import { get, json } from '#tests/api.ts'
import { createCode, createUser, sessionCookie, uniqueEmail } from '#tests/factories.ts'

// Spec 002 §7's owner calls, each with exactly the documented payload, as a token session sends them.

const saved = env.ADMIN_TOKEN
afterEach(() => {
	env.ADMIN_TOKEN = saved
})

async function tokenSession() {
	const user = await createUser()
	env.ADMIN_TOKEN = `spec-client-token-${randomBytes(12).toString('hex')}`
	const plain = await sessionCookie(user.id)
	const answer = await json(validateApi.action, 'POST', '/api/validate-admin-token', { token: env.ADMIN_TOKEN }, plain)
	expect(answer).toMatchObject({ status: 200, body: { valid: true } })
	const cookie = answer.headers.get('set-cookie')!.split(';')[0]!
	expect(await json(validateApi.action, 'POST', '/api/validate-admin-token', { token: 'wrong' }, plain)).toMatchObject({
		body: { valid: false },
	})
	return { user, cookie }
}

async function newOrder() {
	const id = randomUUID()
	await db.insert(s.orders).values({
		id,
		confirmationNumber: `HMH-${randomBytes(4).toString('hex').toUpperCase()}`,
		customerName: 'Rosa Shopper',
		customerEmail: uniqueEmail('buyer'),
		subtotalCents: 500,
		totalCents: 0,
		shippingAddress: {
			name: 'Rosa Shopper',
			address1: '12 Elm Street',
			city: 'Springfield',
			state: 'IL',
			postalCode: '62701',
			country: 'US',
		},
	})
	await db.insert(s.orderItems).values({ orderId: id, name: 'Small Medical QR Sticker (2x2 in)', quantity: 1, unitPriceCents: 500 })
	return id
}

test('orders: list, details, assign-qr {qrCodeIds}, status {fulfillmentStatus}', async () => {
	const { cookie } = await tokenSession()
	const orderId = await newOrder()
	const [a, b] = [await createCode(), await createCode()]
	const list = await get(ordersApi.loader, '/api/admin/orders', cookie)
	expect(list.status).toBe(200)
	expect((list.body.orders as Array<{ orderId: string }>).some((o) => o.orderId === orderId)).toBe(true)
	const details = await get(detailsApi.loader, `/api/admin/order-details/${orderId}`, cookie, { orderId })
	expect(details.body).toMatchObject({ order: { orderId, fulfillmentStatus: 'pending' }, customer: null, qrCodes: [] })
	const path = `/api/admin/orders/${orderId}/assign-qr`
	expect(await json(assignApi.action, 'POST', path, { qrCodeIds: ['x'] }, cookie, { orderId })).toMatchObject({
		status: 400,
		body: { message: 'Please enter valid QR code IDs.' },
	})
	expect(await json(assignApi.action, 'POST', path, { qrCodeIds: [a.id, b.id] }, cookie, { orderId })).toMatchObject({
		status: 200,
		body: { fulfillmentStatus: 'processing' },
	})
	const statusPath = `/api/admin/orders/${orderId}/status`
	expect(await json(statusApi.action, 'PATCH', statusPath, { fulfillmentStatus: 'fulfilled' }, cookie, { orderId })).toMatchObject({
		status: 200,
		body: { order: { fulfillmentStatus: 'fulfilled' } },
	})
	expect(await json(statusApi.action, 'PATCH', statusPath, { fulfillmentStatus: 'pending' }, cookie, { orderId })).toMatchObject({
		status: 409,
	})
	expect(await json(statusApi.action, 'PATCH', statusPath, { fulfillmentStatus: 'shipped' }, cookie, { orderId })).toMatchObject({
		status: 200,
		body: { order: { fulfillmentStatus: 'shipped' } },
	})
})

test('QR management: qr-stats, qr-requests, fulfill (no payload), generate-qr-batch {count}', async () => {
	const { cookie } = await tokenSession()
	const stats = await get(statsApi.loader, '/api/admin/qr-stats', cookie)
	expect(Object.keys(stats.body).sort()).toEqual(['claimed', 'pendingRequests', 'total', 'unclaimed'])
	const { request } = await submitQrRequest(
		{
			fullName: 'Ada Lovelace',
			email: uniqueEmail('req'),
			quantity: 2,
			streetAddress: '1 Main St',
			city: 'Springfield',
			state: 'IL',
			postalCode: '62701',
			country: 'US',
			notes: '',
		},
		null,
	)
	const listed = await get(requestsApi.loader, '/api/admin/qr-requests', cookie)
	expect((listed.body.requests as Array<{ id: number }>).some((r) => r.id === request!.id)).toBe(true)
	const id = String(request!.id)
	expect(await json(fulfillApi.action, 'PUT', `/api/admin/qr-request/${id}/fulfill`, undefined, cookie, { id })).toMatchObject({
		status: 200,
	})
	expect(await json(fulfillApi.action, 'PUT', `/api/admin/qr-request/${id}/fulfill`, undefined, cookie, { id })).toMatchObject({
		status: 409,
	})
	const zip = await json(generateApi.action, 'POST', '/api/admin/generate-qr-batch', { count: 3 }, cookie)
	expect(zip.status).toBe(200)
	expect(zip.headers.get('content-type')).toBe('application/zip')
	expect(await json(generateApi.action, 'POST', '/api/admin/generate-qr-pdf', { count: 'abc' }, cookie)).toMatchObject({
		status: 400,
		body: { message: 'Please enter a quantity between 1 and 1000.' },
	})
})

test('consent-records and notify-visitors (no payload)', async () => {
	const { cookie } = await tokenSession()
	const records = await get(consentApi.loader, '/api/admin/consent-records', cookie)
	expect(records.body).toMatchObject({ records: expect.any(Array), texts: expect.any(Object), stats: { total: expect.any(Number) } })
	const sent = await json(notifyApi.action, 'POST', '/api/notify-visitors', undefined, cookie)
	expect(sent.status).toBe(200)
	expect(sent.body).toEqual({ successCount: expect.any(Number), totalUsers: expect.any(Number) })
})
