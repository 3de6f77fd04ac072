import { messagesTo } from '#app/adapters/mail.server.ts'
import { execFileSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, describe, expect, test } from 'vitest'
import { db, observeQueries } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { createStickerCodes } from '#app/domain/qr/codes.server.ts'
import { CartItemSchema } from '#app/domain/shop/cart.ts'
import { trackingStatus } from '#app/domain/shop/orders.ts'
import { createShopOrder, findOrderForTracking } from '#app/domain/shop/orders.server.ts'
import { parseCsv } from '#tests/csv.ts'
import { claimant, createUser, uniqueEmail } from '#tests/factories.ts'
import { CHOSEN_CODE_GONE } from './chosen-code.ts'
import { DOCUMENT_NEEDS_CODES } from './order-status.ts'
import {
	assignQrCodes,
	dismissNewOrders,
	INVALID_CODE_IDS,
	listOrders,
	markDocumentGenerated,
	newOrdersFor,
	orderDetails,
	ordersCsv,
	ORDERS_PAGE_SIZE,
	parseQrCodeIds,
	setFulfillmentStatus,
	shippingDocument,
	shippingDocumentPdf,
	unassignQrCode,
} from './orders.server.ts'
import { fulfillQrRequest } from './requests-queue.server.ts'

const ADDRESS = { name: 'Rosa Shopper', address1: '12 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }
const ITEM = { name: 'Small Medical QR Sticker (2x2 in)', quantity: 2, unitPriceCents: 500 }

type OrderValues = Partial<typeof s.orders.$inferInsert>
type ItemValues = Omit<typeof s.orderItems.$inferInsert, 'orderId'>

/** An order row as the shop writes it, made directly. */
async function insertOrder(values: OrderValues = {}, items: ItemValues[] = [ITEM]) {
	const id = randomUUID()
	const [order] = await db
		.insert(s.orders)
		.values({
			id,
			confirmationNumber: `HMH-${randomBytes(4).toString('hex').toUpperCase()}`,
			customerName: 'Rosa Shopper',
			customerEmail: uniqueEmail('buyer'),
			subtotalCents: 1000,
			shippingCents: 600,
			totalCents: 1600,
			shippingMethod: 'standard',
			shippingCountry: 'US',
			shippingAddress: ADDRESS,
			...values,
		})
		.returning()
	if (items.length) await db.insert(s.orderItems).values(items.map((item) => ({ ...item, orderId: id })))
	return order!
}

async function codes(n: number) {
	return createStickerCodes(n)
}

async function refusal(promise: Promise<unknown>) {
	const error = await promise.then(
		() => null,
		(e: unknown) => e,
	)
	expect(error).toBeInstanceOf(DomainError)
	return error as DomainError
}

async function orderRow(id: string) {
	return (await db.query.orders.findFirst({ where: eq(s.orders.id, id) }))!
}

async function assignedTo(orderId: string) {
	const rows = await db.select().from(s.orderAssignedCodes).where(eq(s.orderAssignedCodes.orderId, orderId))
	return rows.map((r) => r.qrCodeId).sort((a, b) => a - b)
}

const shippedEmails = (to: string) =>
	db
		.select()
		.from(s.emails)
		.where(and(messagesTo(to), eq(s.emails.emailType, 'order-shipped')))

const tempDirs: string[] = []
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A slip PDF's page count and size, its text (pdftotext) and what its QR codes decode to. */
function pdfFacts(pdf: Uint8Array) {
	const dir = mkdtempSync(join(tmpdir(), 'hmh-slip-'))
	tempDirs.push(dir)
	const file = join(dir, 'slip.pdf')
	writeFileSync(file, pdf)
	const info = execFileSync('pdfinfo', [file]).toString()
	const text = execFileSync('pdftotext', ['-layout', file, '-']).toString()
	// zbar misses the odd code on a crowded, anti-aliased page (about 1 in 30 at 150 dpi, 1 in 45 at 300), rarely the
	// same one at another resolution; rendered crisp at 150 dpi, as a printer would, it missed none of 1,280. The
	// slip's codes are read four ways, and what any of them reads counts.
	const decoded = new Set<string>()
	const renderings = {
		crisp: ['-r', '150', '-aa', 'no', '-aaVector', 'no'],
		r150: ['-r', '150'],
		r200: ['-r', '200'],
		r300: ['-r', '300'],
	}
	for (const [name, options] of Object.entries(renderings)) {
		const prefix = join(dir, `page-${name}`)
		execFileSync('pdftoppm', [...options, '-gray', '-png', file, prefix])
		const pngs = readdirSync(dir)
			.filter((png) => png.startsWith(`page-${name}-`) && png.endsWith('.png'))
			.map((name) => join(dir, name))
		// zbarimg's complaints about a missing D-Bus are noise; exit 4 means no symbol in some file.
		let out = ''
		try {
			out = execFileSync('zbarimg', ['--raw', '-q', ...pngs], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()
		} catch (error) {
			out = String((error as { stdout?: Buffer }).stdout ?? '')
		}
		for (const line of out.split('\n').filter(Boolean)) decoded.add(line)
	}
	return {
		pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]),
		size: /Page size:\s+(.*)/.exec(info)?.[1],
		text,
		decoded: [...decoded],
	}
}

describe('listOrders', () => {
	test('25 orders make 3 pages of 10, 10 and 5, newest first; the page is clamped; four queries per page', async () => {
		// The paging is over every order: this worker's database starts this test with none.
		await db.delete(s.orders)
		const start = Date.now() - 60 * 60_000
		const made: string[] = []
		for (let i = 0; i < 25; i++) made.push((await insertOrder({ createdAt: new Date(start + i * 60_000) })).id)
		const newestFirst = [...made].reverse()

		const pages = []
		for (const page of [1, 2, 3]) pages.push(await listOrders({ page }))
		expect(pages.map((p) => [p.page, p.pageCount, p.total, p.orders.length])).toEqual([
			[1, 3, 25, 10],
			[2, 3, 25, 10],
			[3, 3, 25, 5],
		])
		expect(pages.flatMap((p) => p.orders.map((o) => o.orderId))).toEqual(newestFirst)
		expect(ORDERS_PAGE_SIZE).toBe(10)

		expect((await listOrders({ page: 0 })).page).toBe(1)
		expect((await listOrders({ page: -4 })).page).toBe(1)
		expect((await listOrders({ page: 99 })).page).toBe(3)
		expect((await listOrders({ page: 2.7 })).page).toBe(2)
		expect((await listOrders({ page: Number.NaN })).page).toBe(1)
		expect((await listOrders()).orders[0]!.orderId).toBe(newestFirst[0])

		const queries: string[] = []
		const stop = observeQueries((q) => queries.push(q))
		await listOrders({ page: 1 })
		stop()
		expect(queries.length).toBeLessThanOrEqual(4)

		await db.delete(s.orders).where(inArray(s.orders.id, made))
		expect(await listOrders({ page: 5 })).toEqual({ orders: [], page: 1, pageCount: 1, total: 0 })
	})

	test('each order is the spec’s JSON, with its items and its assigned codes', async () => {
		const order = await insertOrder({ selectedQrCodeId: null, qrShape: 'square', discountCents: 0 }, [
			ITEM,
			{ name: 'Medical Alert Card - Acrylic', quantity: 1, unitPriceCents: 1000, customText: 'Type 1 diabetic' },
		])
		const [a, b] = await codes(2)
		await assignQrCodes(order.id, `${b!.id}, ${a!.id}`)
		const { order: json } = (await orderDetails(order.id))!
		expect(json).toEqual({
			orderId: order.id,
			orderNumber: order.confirmationNumber,
			confirmationNumber: order.confirmationNumber,
			amount: 16,
			totalAmount: 16,
			subtotal: 10,
			shippingCost: 6,
			charged: 0,
			refunded: 0,
			received: 0,
			currency: 'usd',
			timestamp: order.createdAt.toISOString(),
			createdAt: order.createdAt.toISOString(),
			fulfilledAt: null,
			shippedAt: null,
			customerName: 'Rosa Shopper',
			customerEmail: order.customerEmail,
			shippingAddress: ADDRESS,
			items: [
				{ name: ITEM.name, quantity: 2, price: 5, customText: null },
				{ name: 'Medical Alert Card - Acrylic', quantity: 1, price: 10, customText: 'Type 1 diabetic' },
			],
			selectedQrCodeId: null,
			selectedQrCode: null,
			qrShape: 'square',
			hasQrCodes: true,
			qrCodeCount: 2,
			assignedQrCodeIds: [a!.id, b!.id],
			fulfillmentStatus: 'processing',
			paymentStatus: 'free',
			orderType: 'shop',
		})
	})
})

describe('orderDetails', () => {
	test('the customer of a signed-in order, none for a guest; the assigned codes with PIN and scan link', async () => {
		const buyer = await createUser({ firstName: 'Ada', lastName: 'Lovelace' })
		const mine = await insertOrder({ userId: buyer.id, customerEmail: buyer.email })
		const [code] = await codes(1)
		await assignQrCodes(mine.id, [code!.id])
		const details = (await orderDetails(mine.id))!
		expect(details.customer).toEqual({ id: buyer.id, email: buyer.email, name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace' })
		expect(details.qrCodes).toEqual([{ id: code!.id, pin: code!.pin, scanUrl: code!.scanUrl, claimed: false, active: true }])

		const guest = await insertOrder({ userId: null })
		expect((await orderDetails(guest.id))!.customer).toBeNull()
		expect((await orderDetails(guest.id))!.qrCodes).toEqual([])
		expect(await orderDetails(randomUUID())).toBeNull()
		expect(await orderDetails('')).toBeNull()
		expect(await orderDetails('x'.repeat(5000))).toBeNull()
	})
})

describe('parseQrCodeIds', () => {
	test('comma-separated integers; anything else dropped, repeats removed', () => {
		expect(parseQrCodeIds(' 12, 7 ,abc, 12, 0, -3, 4.5, 1e3, 0x10, 99999999999, 2147483647, 2147483648,, 8\n9 ')).toEqual([
			12, 7, 2147483647, 8, 9,
		])
		expect(parseQrCodeIds('')).toEqual([])
		expect(parseQrCodeIds('a, b, -1')).toEqual([])
		expect(parseQrCodeIds(' 007 ')).toEqual([7])
	})

	test('too long an input is refused before it is read', () => {
		const ids = Array.from({ length: 1001 }, (_, i) => i + 1).join(',')
		expect(() => parseQrCodeIds(ids)).toThrow(DomainError)
		expect(() => parseQrCodeIds('1,'.repeat(20_000))).toThrow(/at most 1000/)
		expect(parseQrCodeIds(Array.from({ length: 1000 }, (_, i) => i + 1).join(', '))).toHaveLength(1000)
	})
})

describe('assignQrCodes', () => {
	test('no valid id is a 400 on the field; an unknown order a 404', async () => {
		const order = await insertOrder()
		for (const input of ['', ' , ,', 'abc, -1, 0', []]) {
			const error = await refusal(assignQrCodes(order.id, input))
			expect([error.status, error.message, error.field]).toEqual([400, INVALID_CODE_IDS, 'qrCodeIds'])
		}
		const [code] = await codes(1)
		expect((await refusal(assignQrCodes(randomUUID(), [code!.id]))).status).toBe(404)
		expect((await refusal(assignQrCodes(randomUUID(), [code!.id]))).message).toBe('Order not found.')
	})

	test('claimed, inactive, missing or elsewhere-assigned codes are a 409 naming them, and nothing changes', async () => {
		const owner = await createUser()
		const [good, claimed, inactive, elsewhere] = await codes(4)
		await claimCode(claimant(owner.id), claimed!.pin)
		await db.update(s.qrCodes).set({ isActive: false }).where(eq(s.qrCodes.id, inactive!.id))
		const other = await insertOrder()
		await assignQrCodes(other.id, [elsewhere!.id])
		const order = await insertOrder()

		const cases: Array<[number, string]> = [
			[claimed!.id, `Code ${claimed!.id} is already claimed.`],
			[inactive!.id, `Code ${inactive!.id} is inactive.`],
			[elsewhere!.id, `Code ${elsewhere!.id} is assigned to order ${other.confirmationNumber}.`],
			[2_000_000_000, 'No code 2000000000.'],
		]
		for (const [id, message] of cases) {
			const error = await refusal(assignQrCodes(order.id, `${good!.id}, ${id}`))
			expect([error.status, error.message]).toEqual([409, message])
		}
		const all = await refusal(
			assignQrCodes(
				order.id,
				cases.map(([id]) => id),
			),
		)
		expect(all.message.split('. ').length).toBe(4)
		expect(await assignedTo(order.id)).toEqual([])
		expect((await orderRow(order.id)).fulfillmentStatus).toBe('pending')
		expect(await assignedTo(other.id)).toEqual([elsewhere!.id])
	})

	test('assigning moves a pending order to processing; repeating it changes nothing; only pending or processing orders take codes', async () => {
		const order = await insertOrder()
		const [a, b, c] = await codes(3)
		expect(await assignQrCodes(order.id, `${a!.id}`)).toEqual({
			assigned: [a!.id],
			assignedQrCodeIds: [a!.id],
			fulfillmentStatus: 'processing',
		})
		expect(await assignQrCodes(order.id, [a!.id, b!.id])).toEqual({
			assigned: [b!.id],
			assignedQrCodeIds: [a!.id, b!.id].sort((x, y) => x - y),
			fulfillmentStatus: 'processing',
		})
		expect((await assignQrCodes(order.id, [a!.id])).assigned).toEqual([])

		for (const status of ['fulfilled', 'shipped', 'delivered', 'cancelled'] as const) {
			const closed = await insertOrder({ fulfillmentStatus: status })
			const error = await refusal(assignQrCodes(closed.id, [c!.id]))
			expect(error.status).toBe(409)
			expect(error.message).toMatch(/only to a pending or processing order/)
			expect(await assignedTo(closed.id)).toEqual([])
		}
	})

	test('a code of a cancelled order can go out with another one', async () => {
		const [code] = await codes(1)
		const cancelled = await insertOrder()
		await assignQrCodes(cancelled.id, [code!.id])
		await setFulfillmentStatus(cancelled.id, 'cancelled')
		const order = await insertOrder()
		await assignQrCodes(order.id, [code!.id])
		expect(await assignedTo(order.id)).toEqual([code!.id])
		expect(await assignedTo(cancelled.id)).toEqual([])
	})

	test('a code mailed with a free QR request cannot go with an order: a 409 naming it, nothing changes', async () => {
		const [good, mailed] = await codes(2)
		const [request] = await db
			.insert(s.qrRequests)
			.values({
				fullName: 'Ada Lovelace',
				email: uniqueEmail('requester'),
				quantity: 1,
				streetAddress: '12 Analytical Way',
				city: 'Springfield',
				state: 'IL',
				postalCode: '62701',
				country: 'US',
			})
			.returning()
		await fulfillQrRequest(request!.id, { qrCodeIds: [mailed!.id] })
		const order = await insertOrder()
		const error = await refusal(assignQrCodes(order.id, [good!.id, mailed!.id]))
		expect([error.status, error.message, error.field]).toEqual([
			409,
			`Code ${mailed!.id} was already sent with free QR request #${request!.id}.`,
			'qrCodeIds',
		])
		expect(await assignedTo(order.id)).toEqual([])
		expect((await orderRow(order.id)).fulfillmentStatus).toBe('pending')
		expect((await assignQrCodes(order.id, [good!.id])).assigned).toEqual([good!.id])
	})

	test('two orders grabbing one code at once: exactly one gets it', async () => {
		for (let round = 0; round < 5; round++) {
			const [code] = await codes(1)
			const first = await insertOrder()
			const second = await insertOrder()
			const results = await Promise.allSettled([assignQrCodes(first.id, [code!.id]), assignQrCodes(second.id, [code!.id])])
			expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
			const [failure] = results.filter((r) => r.status === 'rejected')
			expect(failure!.reason).toBeInstanceOf(DomainError)
			expect((failure!.reason as DomainError).status).toBe(409)
			expect((failure!.reason as DomainError).message).toMatch(new RegExp(`Code ${code!.id} is assigned to order HMH-`))
			const holders = await db.select().from(s.orderAssignedCodes).where(eq(s.orderAssignedCodes.qrCodeId, code!.id))
			expect(holders).toHaveLength(1)
		}
	})

	test('two orders grabbing two codes in opposite order never deadlock', async () => {
		const [a, b] = await codes(2)
		const first = await insertOrder()
		const second = await insertOrder()
		const results = await Promise.allSettled([assignQrCodes(first.id, [a!.id, b!.id]), assignQrCodes(second.id, `${b!.id},${a!.id}`)])
		expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
		expect(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as DomainError).status).toBe(409)
	})

	test('unassigning: only while pending or processing; an order without codes is pending again', async () => {
		const order = await insertOrder()
		const [a, b] = await codes(2)
		await assignQrCodes(order.id, [a!.id, b!.id])
		expect(await unassignQrCode(order.id, a!.id)).toEqual({ assignedQrCodeIds: [b!.id], fulfillmentStatus: 'processing' })
		expect((await refusal(unassignQrCode(order.id, a!.id))).status).toBe(404)
		expect(await unassignQrCode(order.id, b!.id)).toEqual({ assignedQrCodeIds: [], fulfillmentStatus: 'pending' })
		expect((await orderRow(order.id)).fulfillmentStatus).toBe('pending')

		await assignQrCodes(order.id, [a!.id])
		await markDocumentGenerated(order.id)
		const error = await refusal(unassignQrCode(order.id, a!.id))
		expect(error.status).toBe(409)
		expect(await assignedTo(order.id)).toEqual([a!.id])
	})
})

describe('the fulfilment machine', () => {
	async function shopOrder() {
		const user = await createUser()
		const [sticker] = await codes(1)
		await claimCode(claimant(user.id), sticker!.pin)
		const result = await createShopOrder(user.id, {
			items: [CartItemSchema.parse({ productId: 2, quantity: 2, customText: 'Call Mom' })],
			address: {
				name: 'Rosa Shopper',
				address1: '12 Elm Street',
				address2: 'Apt 4',
				city: 'Springfield',
				state: 'IL',
				postalCode: '62701',
				country: 'US',
			},
			shippingMethod: 'standard',
			selectedQrCodeId: (await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, sticker!.pin) }))!.id,
			idempotencyKey: randomUUID(),
		})
		return { user, order: await orderRow(result.order.id) }
	}

	test('pending → processing by assignment → fulfilled by the document → shipped with one e-mail; tracking says Shipped', async () => {
		const { user, order } = await shopOrder()
		expect(order.fulfillmentStatus).toBe('pending')

		const early = await refusal(setFulfillmentStatus(order.id, 'processing'))
		expect([early.status, early.message]).toEqual([409, 'Assign at least one QR code before moving this order to processing.'])
		const noDocument = await refusal(markDocumentGenerated(order.id))
		expect([noDocument.status, noDocument.message]).toEqual([409, DOCUMENT_NEEDS_CODES])
		expect((await refusal(setFulfillmentStatus(order.id, 'shipped'))).status).toBe(409)

		const [code] = await codes(1)
		await assignQrCodes(order.id, String(code!.id))
		expect((await orderRow(order.id)).fulfillmentStatus).toBe('processing')

		expect(await markDocumentGenerated(order.id)).toEqual({ fulfillmentStatus: 'fulfilled', changed: true })
		const fulfilled = await orderRow(order.id)
		expect(fulfilled.fulfilledAt).toBeInstanceOf(Date)
		expect(await markDocumentGenerated(order.id)).toEqual({ fulfillmentStatus: 'fulfilled', changed: false })
		expect((await orderRow(order.id)).fulfilledAt).toEqual(fulfilled.fulfilledAt)

		const shipped = await setFulfillmentStatus(order.id, 'shipped')
		expect(shipped.fulfillmentStatus).toBe('shipped')
		expect(shipped.shippedAt).toEqual(expect.any(String))
		const [mail, ...more] = await shippedEmails(user.email)
		expect(more).toEqual([])
		expect(mail!.subject).toBe(`Your order ${order.confirmationNumber} has shipped`)
		expect(mail!.userId).toBe(user.id)
		expect(mail!.textBody).toContain('2 × Small Medical QR Sticker (2x2 in)')
		expect(mail!.textBody).toContain('Rosa Shopper\n12 Elm Street\nApt 4\nSpringfield, IL 62701\nUnited States')
		expect(mail!.textBody).toContain('http://localhost:3000/order-tracking')

		const again = await refusal(setFulfillmentStatus(order.id, 'shipped'))
		expect([again.status, again.message]).toEqual([409, 'This order is already shipped.'])
		expect(await shippedEmails(user.email)).toHaveLength(1)
		expect(await markDocumentGenerated(order.id)).toEqual({ fulfillmentStatus: 'shipped', changed: false })

		const tracked = (await findOrderForTracking(order.confirmationNumber, user.email))!
		expect(trackingStatus(tracked.fulfillmentStatus).label).toBe('Shipped')
		expect(tracked.shippedAt).toBeInstanceOf(Date)
	})

	test('refused transitions are 409 and change nothing', async () => {
		const order = await insertOrder()
		const [code] = await codes(1)
		await assignQrCodes(order.id, [code!.id])
		await setFulfillmentStatus(order.id, 'shipped')
		const before = await orderRow(order.id)
		for (const next of ['pending', 'processing', 'fulfilled', 'shipped', 'cancelled', 'lost']) {
			const error = await refusal(setFulfillmentStatus(order.id, next))
			expect(error.status, next).toBe(409)
			expect(error.field).toBe('fulfillmentStatus')
		}
		expect(await orderRow(order.id)).toEqual(before)
		expect(await shippedEmails(order.customerEmail)).toHaveLength(1)

		expect((await setFulfillmentStatus(order.id, 'delivered')).fulfillmentStatus).toBe('delivered')
		expect((await refusal(setFulfillmentStatus(order.id, 'shipped'))).message).toBe('This order was delivered; its status cannot change.')
		expect((await refusal(setFulfillmentStatus(randomUUID(), 'shipped'))).status).toBe(404)
	})

	test('processing may ship directly; fulfilled is set through the status call too', async () => {
		const order = await insertOrder()
		const [code] = await codes(1)
		await assignQrCodes(order.id, [code!.id])
		const fulfilled = await setFulfillmentStatus(order.id, 'fulfilled')
		expect(fulfilled.fulfilledAt).toEqual(expect.any(String))
		const cancelled = await insertOrder()
		expect((await setFulfillmentStatus(cancelled.id, 'cancelled')).fulfillmentStatus).toBe('cancelled')
		expect((await refusal(markDocumentGenerated(cancelled.id))).status).toBe(409)
	})

	test('two identical shipped requests at once: one ships, one is refused, one e-mail', async () => {
		const order = await insertOrder()
		const [code] = await codes(1)
		await assignQrCodes(order.id, [code!.id])
		await markDocumentGenerated(order.id)
		const results = await Promise.allSettled([setFulfillmentStatus(order.id, 'shipped'), setFulfillmentStatus(order.id, 'shipped')])
		expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
		expect(await shippedEmails(order.customerEmail)).toHaveLength(1)
	})

	test('an order of a deleted account ships without an e-mail', async () => {
		const order = await insertOrder({
			customerEmail: 'deleted-account',
			customerName: null,
			shippingAddress: null,
			fulfillmentStatus: 'fulfilled',
		})
		expect((await setFulfillmentStatus(order.id, 'shipped')).fulfillmentStatus).toBe('shipped')
		expect(await shippedEmails('deleted-account')).toHaveLength(0)
	})
})

describe('the shipping document', () => {
	test('a normal order: one Letter page with the address, items and each code decodable', async () => {
		const order = await insertOrder({}, [
			ITEM,
			{ name: 'Medical Alert Card - Acrylic', quantity: 1, unitPriceCents: 1000, customText: 'Peanut allergy' },
		])
		const assigned = await codes(3)
		await assignQrCodes(
			order.id,
			assigned.map((c) => c.id),
		)

		const doc = (await shippingDocument(order.id))!
		expect(doc).toMatchObject({
			orderNumber: order.confirmationNumber,
			customerName: 'Rosa Shopper',
			shipTo: ['Rosa Shopper', '12 Elm Street', 'Springfield, IL 62701', 'United States'],
			addressFallback: null,
			items: [
				{ name: ITEM.name, quantity: 2, customText: null },
				{ name: 'Medical Alert Card - Acrylic', quantity: 1, customText: 'Peanut allergy' },
			],
		})
		expect(doc.codes.map((c) => [c.id, c.pin, c.scanUrl])).toEqual(assigned.map((c) => [c.id, c.pin, c.scanUrl]))
		for (const code of doc.codes) expect(code.svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)

		const facts = pdfFacts((await shippingDocumentPdf(order.id))!)
		expect(facts.pages).toBe(1)
		expect(facts.size).toMatch(/^612 x 792 pts \(letter\)/)
		expect(facts.decoded.sort()).toEqual(assigned.map((c) => c.scanUrl).sort())
		expect(facts.text).toContain(order.confirmationNumber)
		expect(facts.text).toContain('12 Elm Street')
		expect(facts.text).toContain('Custom text: "Peanut allergy"')
		for (const code of assigned) {
			expect(facts.text).toContain(`Code #${code.id}`)
			expect(facts.text).toContain(`PIN ${code.pin}`)
		}
	})

	test('many codes run onto more pages, every one still decodable; no address shows its fallback', { timeout: 60_000 }, async () => {
		const order = await insertOrder({ shippingAddress: null })
		const assigned = await codes(20)
		await assignQrCodes(
			order.id,
			assigned.map((c) => c.id),
		)
		expect((await shippingDocument(order.id))!.shipTo).toEqual(['Address not available'])
		const facts = pdfFacts((await shippingDocumentPdf(order.id))!)
		expect(facts.pages).toBeGreaterThan(1)
		expect(facts.decoded.sort()).toEqual(assigned.map((c) => c.scanUrl).sort())
		expect(facts.text).toContain('Address not available')
		expect(facts.text).toContain(`page ${facts.pages} of ${facts.pages}`)
	})

	test('no such order: null', async () => {
		expect(await shippingDocument(randomUUID())).toBeNull()
		expect(await shippingDocumentPdf(randomUUID())).toBeNull()
	})
})

describe('the shopper’s chosen code', () => {
	/** A sticker claimed by `user`, as the shop's code picker offers it. */
	async function ownSticker(user: { id: string }) {
		const [code] = await codes(1)
		await claimCode(claimant(user.id), code!.pin)
		return code!
	}

	/** A shop order of `user` linked to `chosen` (spec 000: selectedQrCodeId). */
	const orderOf = (user: { id: string; email: string }, chosen: { id: number }) =>
		insertOrder({ userId: user.id, customerEmail: user.email, selectedQrCodeId: chosen.id })

	test('the order’s own chosen code is accepted, with unclaimed ones beside it; it leads the order’s JSON as a PIN-less label', async () => {
		const buyer = await createUser()
		const chosen = await ownSticker(buyer)
		const order = await orderOf(buyer, chosen)
		const before = (await orderDetails(order.id))!.order
		expect(before.selectedQrCodeId).toBe(chosen.id)
		expect(before.selectedQrCode).toEqual({
			id: chosen.id,
			label: `Sticker #${chosen.id}`,
			scanUrl: chosen.scanUrl,
			ownedByShopper: true,
			active: true,
			assigned: false,
			problem: null,
		})
		expect(JSON.stringify(before)).not.toContain(chosen.pin)

		const [spare] = await codes(1)
		expect(await assignQrCodes(order.id, `${chosen.id}, ${spare!.id}`)).toEqual({
			assigned: [chosen.id, spare!.id],
			assignedQrCodeIds: [chosen.id, spare!.id],
			fulfillmentStatus: 'processing',
		})
		const after = (await orderDetails(order.id))!.order
		expect(after.selectedQrCode).toMatchObject({ assigned: true, problem: null })
		expect(after.assignedQrCodeIds).toEqual([chosen.id, spare!.id])
		expect((await listOrders()).orders.find((o) => o.orderId === order.id)!.selectedQrCode).toEqual(after.selectedQrCode)
		// The shopper turning the code off is no reason against it: it is theirs, and they can turn it on.
		const second = await ownSticker(buyer)
		await db.update(s.qrCodes).set({ isActive: false }).where(eq(s.qrCodes.id, second.id))
		const offOrder = await orderOf(buyer, second)
		expect((await assignQrCodes(offOrder.id, [second.id])).assigned).toEqual([second.id])
	})

	test('other claimed codes stay refused: another order’s chosen code, the same shopper’s other code, another user’s code', async () => {
		const buyer = await createUser()
		const stranger = await createUser()
		const mine = await ownSticker(buyer)
		const myOther = await ownSticker(buyer)
		const theirs = await ownSticker(stranger)
		const order = await orderOf(buyer, mine)
		const otherOrder = await orderOf(buyer, myOther)
		const strangersOrder = await orderOf(stranger, theirs)

		for (const [target, codeId] of [
			[order, myOther.id],
			[order, theirs.id],
			[otherOrder, mine.id],
			[strangersOrder, mine.id],
			[otherOrder, theirs.id],
		] as const) {
			const error = await refusal(assignQrCodes(target.id, [codeId]))
			expect([error.status, error.message, error.field]).toEqual([409, `Code ${codeId} is already claimed.`, 'qrCodeIds'])
		}
		// With its own chosen code beside one of them, the whole assignment is refused and nothing changes.
		const mixed = await refusal(assignQrCodes(order.id, [mine.id, theirs.id]))
		expect(mixed.message).toBe(`Code ${theirs.id} is already claimed.`)
		expect(await assignedTo(order.id)).toEqual([])
		expect((await orderRow(order.id)).fulfillmentStatus).toBe('pending')
	})

	test('a chosen code goes out with one order only, and only while it is still the shopper’s', async () => {
		const buyer = await createUser()
		const chosen = await ownSticker(buyer)
		const first = await orderOf(buyer, chosen)
		const again = await orderOf(buyer, chosen)
		await assignQrCodes(first.id, [chosen.id])
		const twice = await refusal(assignQrCodes(again.id, [chosen.id]))
		expect(twice.message).toBe(`Code ${chosen.id} is assigned to order ${first.confirmationNumber}.`)
		expect((await orderDetails(again.id))!.order.selectedQrCode).toMatchObject({ assigned: false, problem: twice.message })

		const given = await ownSticker(buyer)
		const order = await orderOf(buyer, given)
		const newOwner = await createUser()
		await db.update(s.qrCodes).set({ userId: newOwner.id, medicalProfileId: null }).where(eq(s.qrCodes.id, given.id))
		const gone = await refusal(assignQrCodes(order.id, [given.id]))
		expect(gone.message).toBe(`Code ${given.id} was chosen for this order but is no longer the shopper’s.`)
		// Someone else's code: neither its scan link nor its PIN is shown on the order.
		const view = (await orderDetails(order.id))!.order.selectedQrCode!
		expect(view).toMatchObject({ ownedByShopper: false, scanUrl: null, problem: gone.message })
	})

	test('the packing slip puts the chosen code first, without a PIN, and says so in the PDF', async () => {
		const buyer = await createUser()
		const [spare] = await codes(1)
		const chosen = await ownSticker(buyer)
		const order = await orderOf(buyer, chosen)
		await assignQrCodes(order.id, [spare!.id, chosen.id])

		const doc = (await shippingDocument(order.id))!
		expect(doc.chosenCode).toMatchObject({ id: chosen.id, label: `Sticker #${chosen.id}`, scanUrl: chosen.scanUrl, assigned: true })
		expect(doc.chosenCodeStatus).toBe('Assigned to this order.')
		expect(doc.codes.map((c) => [c.id, c.pin, c.chosen, c.claimed])).toEqual([
			[chosen.id, null, true, true],
			[spare!.id, spare!.pin, false, false],
		])

		const facts = pdfFacts((await shippingDocumentPdf(order.id))!)
		expect(facts.decoded.sort()).toEqual([chosen.scanUrl, spare!.scanUrl].sort())
		expect(facts.text).toContain(`Chosen by the shopper: Sticker #${chosen.id}`)
		expect(facts.text).toContain('Assigned to this order.')
		expect(facts.text).toContain(`PIN ${spare!.pin}`)
		expect(facts.text).not.toContain(chosen.pin)
	})

	test('orders.csv names the chosen code, its label, scan link and where it stands', async () => {
		const buyer = await createUser()
		const chosen = await ownSticker(buyer)
		const order = await orderOf(buyer, chosen)
		const row = () => ordersCsv().then((csv) => parseCsv(csv).find((r) => r[0] === order.confirmationNumber)!)
		expect((await row()).slice(11)).toEqual([String(chosen.id), `Sticker #${chosen.id}`, chosen.scanUrl, 'Not assigned yet.'])
		await assignQrCodes(order.id, [chosen.id])
		expect((await row()).slice(10)).toEqual([
			String(chosen.id),
			String(chosen.id),
			`Sticker #${chosen.id}`,
			chosen.scanUrl,
			'Assigned to this order.',
		])
		expect((await ordersCsv()).includes(chosen.pin)).toBe(false)
	})
})

describe('ordersCsv', () => {
	test('every order newest first, quoted properly, with formulas neutralised', async () => {
		const older = await insertOrder({ customerName: 'Plain Name' })
		const hostile = await insertOrder(
			{
				customerName: '=HYPERLINK("http://evil.example","click")',
				customerEmail: `@${uniqueEmail('x')}`,
				shippingAddress: { ...ADDRESS, name: '+Rosa, "the" Shopper', address1: '-12 Elm\nStreet' },
			},
			[{ name: 'Sticker, "large"', quantity: 3, unitPriceCents: 800, customText: '@home' }],
		)
		// The review's case: a formula after a semicolon, for a spreadsheet that splits on semicolons.
		const semicolon = await insertOrder({ customerName: 'Ann Shopper;=HYPERLINK("http://evil.example","click")' })
		const [code] = await codes(1)
		await assignQrCodes(hostile.id, [code!.id])

		const csv = await ordersCsv()
		expect(csv.endsWith('\r\n')).toBe(true)
		const rows = parseCsv(csv)
		expect(rows[0]).toEqual([
			'orderNumber',
			'date',
			'customerName',
			'customerEmail',
			'status',
			'paymentStatus',
			'total',
			'received',
			'items',
			'shippingAddress',
			'assignedCodes',
			'chosenCode',
			'chosenCodeLabel',
			'chosenCodeScanUrl',
			'chosenCodeStatus',
		])
		expect(rows.every((r) => r.length === 15)).toBe(true)
		const numbers = rows.map((r) => r[0])
		expect(numbers.indexOf(hostile.confirmationNumber)).toBeLessThan(numbers.indexOf(older.confirmationNumber))
		expect(numbers.indexOf(hostile.confirmationNumber)).toBeGreaterThan(0)

		const row = rows.find((r) => r[0] === hostile.confirmationNumber)!
		expect(row).toEqual([
			hostile.confirmationNumber,
			hostile.createdAt.toISOString(),
			`'=HYPERLINK("http://evil.example","click")`,
			`'${hostile.customerEmail}`,
			'processing',
			'free',
			'16.00',
			'0.00',
			'3 x Sticker, "large" (text: @home)',
			`'+Rosa, "the" Shopper, '-12 Elm Street, Springfield, IL 62701, United States`,
			String(code!.id),
			'',
			'',
			'',
			CHOSEN_CODE_GONE,
		])
		expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`)

		expect(rows.find((r) => r[0] === semicolon.confirmationNumber)![2]).toBe(`Ann Shopper;'=HYPERLINK("http://evil.example","click")`)
		for (const separator of [',', ';', '\t'])
			for (const field of csv.split(new RegExp(`[${separator}\\r\\n]`))) expect(field.replace(/^[\s"]+/, '')).not.toMatch(/^[=+@]|^-(?!\d)/)
	})
})

describe('the new-order alert', () => {
	test('first visit starts from now; then at most 3 listed with the total; dismissing remembers and never goes back', async () => {
		const owner = await createUser()
		expect(await newOrdersFor(owner.id)).toEqual({ orders: [], total: 0, newestAt: null })
		const settings = await db.query.ownerSettings.findFirst({ where: eq(s.ownerSettings.userId, owner.id) })
		expect(settings!.ordersSeenAt).toBeInstanceOf(Date)
		expect(await newOrdersFor(owner.id)).toEqual({ orders: [], total: 0, newestAt: null })
		await sleep(5)

		const made = []
		for (let i = 0; i < 5; i++) made.push(await insertOrder())
		const alert = await newOrdersFor(owner.id)
		expect(alert.total).toBe(5)
		expect(alert.orders.map((o) => o.orderId)).toEqual(
			made
				.slice(-3)
				.reverse()
				.map((o) => o.id),
		)
		expect(alert.newestAt).toBe(made.at(-1)!.createdAt.toISOString())

		const seen = await dismissNewOrders(owner.id, new Date(alert.newestAt!))
		expect(seen.toISOString()).toBe(alert.newestAt)
		expect(await newOrdersFor(owner.id)).toEqual({ orders: [], total: 0, newestAt: null })

		expect((await dismissNewOrders(owner.id, new Date('2020-01-01T00:00:00Z'))).toISOString()).toBe(alert.newestAt)
		const future = await dismissNewOrders(owner.id, new Date(Date.now() + 24 * 60 * 60_000))
		expect(future.getTime()).toBeLessThanOrEqual(Date.now())
		await sleep(5)

		const later = await insertOrder()
		const next = await newOrdersFor(owner.id)
		expect([next.total, next.orders.map((o) => o.orderId)]).toEqual([1, [later.id]])
		expect((await refusal(dismissNewOrders(owner.id, new Date('nonsense')))).status).toBe(400)
	})

	test('an owner who never looked and an owner row without a time both start from now', async () => {
		const owner = await createUser()
		await db.insert(s.ownerSettings).values({ userId: owner.id })
		await insertOrder()
		expect(await newOrdersFor(owner.id)).toEqual({ orders: [], total: 0, newestAt: null })
		expect((await db.query.ownerSettings.findFirst({ where: eq(s.ownerSettings.userId, owner.id) }))!.ordersSeenAt).toBeInstanceOf(Date)
	})
})
