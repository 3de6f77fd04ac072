import { randomBytes, randomUUID } from 'node:crypto'
import { afterEach, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { submitQrRequest } from '#app/domain/requests/requests.server.ts'
import { SCANS_CSV_COLUMNS } from '#app/domain/analytics/analytics.server.ts'
import * as analyticsApi from '#app/routes/api/admin-analytics.ts'
import * as filteredApi from '#app/routes/api/admin-analytics-filtered.ts'
import * as emailApi from '#app/routes/api/admin-email-analytics.ts'
import * as trafficApi from '#app/routes/api/admin-traffic-analysis.ts'
import * as scanAnalyticsApi from '#app/routes/api/qr-scan-analytics.ts'
import * as scanExportApi from '#app/routes/api/qr-scan-export.ts'
import * as assignApi from '#app/routes/api/admin-order-assign.ts'
import * as consentApi from '#app/routes/api/admin-consent-records.ts'
import * as detailsApi from '#app/routes/api/admin-order-details.ts'
import * as generateApi from '#app/routes/api/admin-generate-batch.ts'
import * as imageApi from '#app/routes/api/admin-qr-code-image.ts'
import * as ordersApi from '#app/routes/api/admin-orders.ts'
import * as fulfillApi from '#app/routes/api/admin-qr-request-fulfill.ts'
import * as requestsApi from '#app/routes/api/admin-qr-requests.ts'
import * as statsApi from '#app/routes/api/admin-qr-stats.ts'
import * as statusApi from '#app/routes/api/admin-order-status.ts'
import * as notifyApi from '#app/routes/api/notify-visitors.ts'
import * as validateApi from '#app/routes/api/validate-admin-token.ts'
import { env } from '#app/utils/env.server.ts'
import { get, json } from '#tests/api.ts'
import { call, createCode, createUser, sessionCookie, uniqueEmail } from '#tests/factories.ts'
import { decodeQr } from '#tests/zbar.ts'

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

test("a code's image: a PNG made on a renderer (the spec's client expects PNG); an SVG on ?format=svg or an SVG-only Accept", async () => {
	const { cookie } = await tokenSession()
	const code = await createCode()
	const params = { id: String(code.id) }
	const image = async (query = '', accept?: string) => {
		const headers: Record<string, string> = { cookie }
		if (accept) headers.accept = accept
		const request = new Request(`http://localhost:3000/api/admin/qr-codes/${code.id}/image${query}`, { headers })
		const response = (await call(imageApi.loader, request, params)).result as Response
		return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) }
	}
	const png = await image()
	expect(png).toMatchObject({ status: 200, type: 'image/png' })
	expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
	expect(png.bytes.readUInt32BE(16)).toBe(160)
	expect(await decodeQr(png.bytes)).toBe(code.scanUrl)
	// A browser's image request names SVG beside image/*: it gets the PNG too.
	const browser = await image('?size=400', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8')
	expect(browser).toMatchObject({ status: 200, type: 'image/png' })
	expect(browser.bytes.readUInt32BE(16)).toBe(400)
	for (const [query, accept] of [
		['?format=svg', undefined],
		['', 'image/svg+xml'],
		['', 'image/svg+xml, image/png;q=0'],
	] as const) {
		const svg = await image(query, accept)
		expect(svg, `${query} ${accept}`).toMatchObject({ status: 200, type: 'image/svg+xml; charset=utf-8' })
		expect(svg.bytes.toString()).toMatch(/^<svg/)
	}
	expect((await image('?format=svg', 'image/png')).type).toMatch(/^image\/svg\+xml/)
	expect((await image('?format=png', 'image/svg+xml')).type).toBe('image/png')
	expect((await image('?format=gif')).status).toBe(400)
	expect((await image('?size=5000')).status).toBe(400)
	const missing = (
		await call(imageApi.loader, new Request('http://localhost:3000/api/admin/qr-codes/0/image', { headers: { cookie } }), {
			id: '999999999',
		})
	).result as Response
	expect(missing.status).toBe(404)
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

test("analytics calls (spec 002 §7): every field of the spec's entities, 400 for a window or date the spec does not list", async () => {
	const { cookie } = await tokenSession()
	const overview = await get(analyticsApi.loader, '/api/admin/analytics?timeRange=7days', cookie)
	expect(overview.status).toBe(200)
	for (const field of [
		'totalUsers',
		'totalVisits',
		'lastVisit',
		'totalRevenue',
		'shopRevenue',
		'donationRevenue',
		'totalSignups',
		'signupRate',
		'totalOrders',
		'orderConversionRate',
		'totalQrCreated',
		'totalQrDownloaded',
		'totalQrAccessed',
		'userGrowth',
		'recentActivity',
		'recentOrders',
		'donationData',
	])
		expect(overview.body).toHaveProperty(field)
	expect(overview.body.timeRange).toBe('7days')
	expect((await get(analyticsApi.loader, '/api/admin/analytics?timeRange=nonsense', cookie)).body.timeRange).toBe('7days')

	const filtered = await get(filteredApi.loader, '/api/admin/analytics/filtered?hours=12', cookie)
	expect(filtered.body).toMatchObject({
		realUserVisits: expect.any(Number),
		realUsers: expect.any(Number),
		conversionRate: expect.any(Number),
		timeRange: '12hours',
		summary: { description: expect.any(String) },
	})
	// Twelve hours from a time within an hour touch 13 clock hours (the first and last partly), 12 on the hour.
	expect([12, 13]).toContain((filtered.body.hourlyBreakdown as object[]).length)
	expect(Object.keys((filtered.body.hourlyBreakdown as object[])[0]!)).toEqual(expect.arrayContaining(['hour', 'visit_count']))
	expect(await get(filteredApi.loader, '/api/admin/analytics/filtered?hours=5', cookie)).toMatchObject({
		status: 400,
		body: { message: 'hours must be one of 6, 12, 24, 48, 72' },
	})

	const day = new Date().toISOString().slice(0, 10)
	const traffic = await get(trafficApi.loader, `/api/admin/traffic-analysis/2026-11-01`, cookie, { date: '2026-11-01' })
	expect(traffic.headers.get('content-type')).toMatch(/^application\/json/)
	for (const field of [
		'totalVisits',
		'uniqueVisitors',
		'firstTimeVisitors',
		'returningVisitors',
		'signupsFromFirstVisit',
		'hourlyBreakdown',
		'topPages',
		'browserStats',
		'deviceStats',
	])
		expect(traffic.body).toHaveProperty(field)
	expect(traffic.body.hourlyBreakdown).toHaveLength(25)
	for (const bad of ['2026-02-30', 'today', '2999-01-01'])
		expect(await get(trafficApi.loader, `/api/admin/traffic-analysis/${bad}`, cookie, { date: bad })).toMatchObject({ status: 400 })
	expect((await get(trafficApi.loader, `/api/admin/traffic-analysis/${day}`, cookie, { date: day })).status).toBeLessThan(500)

	const scans = await get(scanAnalyticsApi.loader, '/api/qr-scan/analytics', cookie)
	expect(scans.body).toMatchObject({
		totalScans: expect.any(Number),
		emergencyScans: expect.any(Number),
		scannerTypes: expect.any(Object),
		deviceTypes: { mobile: expect.any(Number), desktop: expect.any(Number), tablet: expect.any(Number) },
		recentScans: expect.any(Array),
	})
	const csv = await scanExportApi.loader({
		request: new Request('http://localhost/api/qr-scan/export', { headers: { cookie } }),
		params: {},
		context: undefined as never,
	} as never)
	expect((csv as Response).headers.get('content-type')).toBe('text/csv; charset=utf-8')
	expect((await (csv as Response).text()).split('\r\n')[0]).toBe(SCANS_CSV_COLUMNS.join(','))

	const mail = await get(emailApi.loader, '/api/admin/email-analytics', cookie)
	expect(mail.body).toMatchObject({
		email: {
			totalSent: expect.any(Number),
			totalOpened: expect.any(Number),
			totalClicked: expect.any(Number),
			openRate: expect.any(Number),
			clickRate: expect.any(Number),
			recentEmails: expect.any(Array),
		},
		visits: { totalVisitsFromEmails: expect.any(Number), uniqueVisitorsFromEmails: expect.any(Number), recentVisits: expect.any(Array) },
	})
})
