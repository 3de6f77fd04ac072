import { messagesTo } from '#app/adapters/mail.server.ts'
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { auditLog, emails, orderAssignedCodes, orders, qrCodes, qrRequests } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { createStickerCodes } from '#app/domain/qr/codes.server.ts'
import { createUser, uniqueEmail } from '#tests/factories.ts'
import { assignQrCodes, setFulfillmentStatus } from './orders.server.ts'
import {
	ALREADY_FULFILLED,
	FULFILMENT_EMAIL_TYPE,
	fulfillQrRequest,
	INVALID_CODE_LIST,
	listQrRequests,
	MAX_CODE_LIST_CHARS,
	parseCodeList,
	REQUEST_FULFILLED_ACTION,
	REQUEST_NOT_FOUND,
} from './requests-queue.server.ts'

type RequestValues = Partial<typeof qrRequests.$inferInsert>

async function makeRequest(values: RequestValues = {}) {
	const [row] = await db
		.insert(qrRequests)
		.values({
			fullName: 'Ada Lovelace',
			email: uniqueEmail('requester'),
			quantity: 3,
			streetAddress: '12 Analytical Way',
			city: 'Springfield',
			state: 'IL',
			postalCode: '62701',
			country: 'US',
			notes: 'Allergic to penicillin; on warfarin',
			...values,
		})
		.returning()
	return row!
}

async function refusal(promise: Promise<unknown>) {
	const error = await promise.then(
		() => null,
		(e: unknown) => e,
	)
	expect(error).toBeInstanceOf(DomainError)
	const { status, message, field } = error as DomainError
	return { status, message, field }
}

const requestRow = (id: number) => db.query.qrRequests.findFirst({ where: eq(qrRequests.id, id) })
const auditFor = (id: number) =>
	db
		.select()
		.from(auditLog)
		.where(and(eq(auditLog.action, REQUEST_FULFILLED_ACTION), eq(auditLog.subjectId, String(id))))
const mailTo = (address: string) => db.select().from(emails).where(messagesTo(address))

describe('parseCodeList', () => {
	test('keeps whole numbers in id range, once each, in the order typed; drops the rest', () => {
		expect(parseCodeList('1, 2,abc, 2, 3.5, -4, 007 ,99999999999, 2147483648, 0, 12abc')).toEqual([1, 2, 7])
		expect(parseCodeList('4 5\n6;7')).toEqual([4, 5, 6, 7])
		expect(parseCodeList('')).toEqual([])
		expect(parseCodeList('a, b, , ,')).toEqual([])
		expect(parseCodeList('2147483647')).toEqual([2147483647])
	})

	test('a long input is cut at a separator before any work', () => {
		expect(parseCodeList('1,'.repeat(100_000))).toEqual([1])
		// A number across the limit is dropped whole, never read as its first digits.
		const padding = ','.repeat(MAX_CODE_LIST_CHARS - 4)
		expect(parseCodeList(`${padding},12,345678`)).toEqual([12])
		expect(parseCodeList(`${padding}123456`)).toEqual([])
		expect(parseCodeList('9'.repeat(MAX_CODE_LIST_CHARS * 10))).toEqual([])
	})
})

describe('the request queue', () => {
	test('pending first, each newest first; a status filter; each row is the spec shape plus fulfilledAt and codes', async () => {
		const now = Date.now()
		const oldPending = await makeRequest({ createdAt: new Date(now - 3_600_000) })
		const newPending = await makeRequest({ createdAt: new Date(now - 60_000) })
		const fulfilled = await makeRequest({ createdAt: new Date(now), requestStatus: 'fulfilled', fulfilledAt: new Date(now) })
		const mine = new Set([oldPending.id, newPending.id, fulfilled.id])

		const all = (await listQrRequests({ limit: 500 })).filter((r) => mine.has(r.id))
		expect(all.map((r) => r.id)).toEqual([newPending.id, oldPending.id, fulfilled.id])
		expect(all[0]).toEqual({
			id: newPending.id,
			fullName: 'Ada Lovelace',
			email: newPending.email,
			quantity: 3,
			shippingAddress: { streetAddress: '12 Analytical Way', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
			notes: newPending.notes,
			requestStatus: 'pending',
			createdAt: newPending.createdAt,
			fulfilledAt: null,
			qrCodeIds: [],
		})
		expect(all[2]).toMatchObject({ requestStatus: 'fulfilled', fulfilledAt: new Date(now) })

		const pending = await listQrRequests({ status: 'pending', limit: 500 })
		expect(pending.every((r) => r.requestStatus === 'pending')).toBe(true)
		expect(pending.filter((r) => mine.has(r.id)).map((r) => r.id)).toEqual([newPending.id, oldPending.id])
		const done = await listQrRequests({ status: 'fulfilled', limit: 500 })
		expect(done.every((r) => r.requestStatus === 'fulfilled')).toBe(true)
		expect(done.filter((r) => mine.has(r.id)).map((r) => r.id)).toEqual([fulfilled.id])

		expect(await listQrRequests({ limit: 1 })).toHaveLength(1)
		expect((await listQrRequests({ limit: 0 })).length).toBeLessThanOrEqual(1)
	})
})

describe('fulfilling a request', () => {
	test('pending → fulfilled once, audited; a second time is a 409 that changes nothing', async () => {
		const owner = await createUser()
		const request = await makeRequest()
		const result = await fulfillQrRequest(request.id, { actorUserId: owner.id })
		expect(result).toMatchObject({ qrCodeIds: [], notified: false, request: { id: request.id, requestStatus: 'fulfilled', qrCodeIds: [] } })
		const stored = await requestRow(request.id)
		expect(stored).toMatchObject({ requestStatus: 'fulfilled' })
		expect(stored!.fulfilledAt).toBeInstanceOf(Date)
		expect(await auditFor(request.id)).toEqual([
			expect.objectContaining({ actorUserId: owner.id, subjectType: 'qr_request', details: { qrCodeIds: [], notified: false } }),
		])

		expect(await refusal(fulfillQrRequest(request.id, { notify: true }))).toMatchObject({ status: 409, message: ALREADY_FULFILLED })
		expect(await requestRow(request.id)).toEqual(stored)
		expect(await auditFor(request.id)).toHaveLength(1)
		expect(await mailTo(request.email)).toEqual([])
	})

	test('an unknown request is a 404', async () => {
		for (const id of [2_000_000_000, 0, -1, 1.5, Number.NaN, 2 ** 40])
			expect(await refusal(fulfillQrRequest(id, {}))).toMatchObject({ status: 404, message: REQUEST_NOT_FOUND })
	})

	test('assigned codes are recorded, listed and shown in the e-mail; the e-mail has no PIN, notes or anything medical', async () => {
		const [a, b] = await createStickerCodes(2)
		const request = await makeRequest({ quantity: 2 })
		const result = await fulfillQrRequest(request.id, { qrCodeIds: [b!.id, a!.id, b!.id], notify: true })
		expect(result.qrCodeIds).toEqual([a!.id, b!.id].sort((x, y) => x - y))
		expect(result.notified).toBe(true)
		expect((await auditFor(request.id))[0]!.details).toEqual({ qrCodeIds: result.qrCodeIds, notified: true })
		const listed = (await listQrRequests({ status: 'fulfilled', limit: 500 })).find((r) => r.id === request.id)
		expect(listed?.qrCodeIds).toEqual(result.qrCodeIds)
		// The codes stay unclaimed: the requester claims them with the printed PIN.
		expect(await db.query.qrCodes.findFirst({ where: eq(qrCodes.id, a!.id) })).toMatchObject({ userId: null, isActive: true })

		const [mail] = await mailTo(request.email)
		expect(mail).toMatchObject({ emailType: FULFILMENT_EMAIL_TYPE, subject: 'Your free QR codes are on their way', userId: null })
		const text = mail!.textBody
		for (const part of ['Ada Lovelace', '12 Analytical Way', 'Springfield, IL 62701', 'US', `#${a!.id}`, `#${b!.id}`, '/claim/', '2 free'])
			expect(text).toContain(part)
		expect(text).toContain('http://localhost:3000/claim/')
		expect(text).toContain('http://localhost:3000/dashboard/qr-codes')
		for (const secret of [a!.pin, b!.pin, a!.token, 'penicillin', 'warfarin']) expect(text).not.toContain(secret)
	})

	test("a signed-in requester's e-mail is linked to the account; without notify nothing is sent", async () => {
		const person = await createUser()
		const linked = await makeRequest({ userId: person.id, email: person.email })
		await fulfillQrRequest(linked.id, { notify: true })
		expect(await mailTo(person.email)).toEqual([expect.objectContaining({ userId: person.id })])
		const silent = await makeRequest()
		await fulfillQrRequest(silent.id, { notify: false })
		expect(await mailTo(silent.email)).toEqual([])
	})

	test('a code that cannot go is a 409 naming it, and nothing changes', async () => {
		const [free, claimed, inactive, ordered, sent] = await createStickerCodes(5)
		const person = await createUser()
		await db.update(qrCodes).set({ userId: person.id, claimedAt: new Date() }).where(eq(qrCodes.id, claimed!.id))
		await db.update(qrCodes).set({ isActive: false }).where(eq(qrCodes.id, inactive!.id))
		const orderId = randomUUID()
		await db.insert(orders).values({
			id: orderId,
			confirmationNumber: `HMH-${orderId.slice(0, 8).toUpperCase()}`,
			customerEmail: uniqueEmail('buyer'),
			subtotalCents: 0,
			totalCents: 0,
		})
		await db.insert(orderAssignedCodes).values({ orderId, qrCodeId: ordered!.id })
		const earlier = await makeRequest({ quantity: 1 })
		await fulfillQrRequest(earlier.id, { qrCodeIds: [sent!.id] })

		const request = await makeRequest({ quantity: 10 })
		const missing = 2_000_000_000
		const cases: Array<[number, string]> = [
			[missing, `QR code ${missing} does not exist.`],
			[claimed!.id, `QR code ${claimed!.id} has already been claimed.`],
			[inactive!.id, `QR code ${inactive!.id} is inactive.`],
			[ordered!.id, `QR code ${ordered!.id} is already assigned to an order.`],
			[sent!.id, `QR code ${sent!.id} was already sent with free QR request #${earlier.id}.`],
		]
		for (const [bad, message] of cases) {
			expect(await refusal(fulfillQrRequest(request.id, { qrCodeIds: [free!.id, bad], notify: true }))).toEqual({
				status: 409,
				message,
				field: 'qrCodeIds',
			})
		}
		expect(await requestRow(request.id)).toMatchObject({ requestStatus: 'pending', fulfilledAt: null })
		expect(await auditFor(request.id)).toEqual([])
		expect(await mailTo(request.email)).toEqual([])

		// The free code still goes.
		expect((await fulfillQrRequest(request.id, { qrCodeIds: [free!.id] })).qrCodeIds).toEqual([free!.id])
	})

	test('a code assigned to an order through the shop cannot be mailed; once that order is cancelled it can, and moves', async () => {
		const [code] = await createStickerCodes(1)
		const orderId = randomUUID()
		await db.insert(orders).values({
			id: orderId,
			confirmationNumber: `HMH-${orderId.slice(0, 8).toUpperCase()}`,
			customerEmail: uniqueEmail('buyer'),
			subtotalCents: 0,
			totalCents: 0,
		})
		await assignQrCodes(orderId, [code!.id])
		const request = await makeRequest({ quantity: 1 })
		expect(await refusal(fulfillQrRequest(request.id, { qrCodeIds: [code!.id] }))).toEqual({
			status: 409,
			message: `QR code ${code!.id} is already assigned to an order.`,
			field: 'qrCodeIds',
		})
		await setFulfillmentStatus(orderId, 'cancelled')
		expect((await fulfillQrRequest(request.id, { qrCodeIds: [code!.id] })).qrCodeIds).toEqual([code!.id])
		expect(await db.select().from(orderAssignedCodes).where(eq(orderAssignedCodes.qrCodeId, code!.id))).toEqual([])
	})

	test('an order and a request grabbing one code at once: exactly one gets it', async () => {
		for (let round = 0; round < 3; round++) {
			const [code] = await createStickerCodes(1)
			const orderId = randomUUID()
			await db.insert(orders).values({
				id: orderId,
				confirmationNumber: `HMH-${orderId.slice(0, 8).toUpperCase()}`,
				customerEmail: uniqueEmail('buyer'),
				subtotalCents: 0,
				totalCents: 0,
			})
			const request = await makeRequest({ quantity: 1 })
			const outcomes = await Promise.allSettled([
				assignQrCodes(orderId, [code!.id]),
				fulfillQrRequest(request.id, { qrCodeIds: [code!.id] }),
			])
			expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
			const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
			expect(rejected.reason).toMatchObject({ status: 409, message: expect.stringMatching(new RegExp(`code ${code!.id} (is|was)`, 'i')) })
			const onOrder = await db.select().from(orderAssignedCodes).where(eq(orderAssignedCodes.qrCodeId, code!.id))
			const sent = await auditFor(request.id)
			expect(onOrder.length + sent.length).toBe(1)
		}
	})

	test('more codes than the request asked for, or ids that are not ids, are a 400 that changes nothing', async () => {
		const codes = await createStickerCodes(3)
		const request = await makeRequest({ quantity: 2 })
		expect(await refusal(fulfillQrRequest(request.id, { qrCodeIds: codes.map((c) => c.id) }))).toEqual({
			status: 400,
			message: 'This request is for 2 QR codes: assign at most 2.',
			field: 'qrCodeIds',
		})
		for (const bad of [[1.5], [0], [-3], [Number.NaN], [2 ** 31]])
			expect(await refusal(fulfillQrRequest(request.id, { qrCodeIds: bad }))).toEqual({
				status: 400,
				message: INVALID_CODE_LIST,
				field: 'qrCodeIds',
			})
		expect(await requestRow(request.id)).toMatchObject({ requestStatus: 'pending' })
		expect(await auditFor(request.id)).toEqual([])
	})

	test('the e-mail is queued in the same transaction: when it cannot be queued, the request stays pending', async () => {
		const request = await makeRequest({ email: 'not-an-address' })
		await expect(fulfillQrRequest(request.id, { notify: true })).rejects.toThrow(/Invalid e-mail message/)
		expect(await requestRow(request.id)).toMatchObject({ requestStatus: 'pending', fulfilledAt: null })
		expect(await auditFor(request.id)).toEqual([])
	})

	test('two fulfilments at once: one wins, the other is a 409', async () => {
		const request = await makeRequest()
		const outcomes = await Promise.allSettled([fulfillQrRequest(request.id, {}), fulfillQrRequest(request.id, {})])
		expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
		const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
		expect(rejected.reason).toMatchObject({ status: 409, message: ALREADY_FULFILLED })
		expect(await auditFor(request.id)).toHaveLength(1)
	})

	test('the same code for two requests at once goes with one of them only', async () => {
		const [code] = await createStickerCodes(1)
		const first = await makeRequest({ quantity: 1 })
		const second = await makeRequest({ quantity: 1 })
		const outcomes = await Promise.allSettled([
			fulfillQrRequest(first.id, { qrCodeIds: [code!.id] }),
			fulfillQrRequest(second.id, { qrCodeIds: [code!.id] }),
		])
		expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
		const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
		expect(rejected.reason).toMatchObject({ status: 409, message: expect.stringContaining(`QR code ${code!.id} was already sent`) })
	})
})
