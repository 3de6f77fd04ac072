import { messagesTo } from '#app/adapters/mail.server.ts'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { searchAddresses } from '#app/adapters/address-search.server.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { CartItemSchema, lineKey } from '#app/domain/shop/cart.ts'
import { createShopOrder } from '#app/domain/shop/orders.server.ts'
import * as login from '#app/routes/auth/login.tsx'
import * as createOrderApi from '#app/routes/api/create-shop-order.ts'
import * as suggestionsApi from '#app/routes/api/address-suggestions.ts'
import * as discountApi from '#app/routes/api/validate-discount.ts'
import * as cart from '#app/routes/shop/cart.tsx'
import * as shop from '#app/routes/shop/shop.tsx'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { json } from '#tests/api.ts'
import { specShopOrder } from '#tests/spec-payloads.ts'
import {
	call,
	claimant,
	cookieFrom,
	createCode,
	createUser,
	formRequest,
	getRequest,
	sessionCookie,
	TEST_PASSWORD,
	unwrap,
} from '#tests/factories.ts'

const ADDRESS = { name: 'Rosa Shopper', address1: '12 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }
const item = (productId: number, quantity = 1, extra: Record<string, unknown> = {}) =>
	CartItemSchema.parse({ productId, quantity, ...extra })

async function shopper() {
	const user = await createUser()
	const sticker = await createCode()
	await claimCode(claimant(user.id), sticker.pin)
	const code = (await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, sticker.pin) }))!
	return { user, code, cookie: await sessionCookie(user.id) }
}

const ordersOf = async (userId: string) => (await db.select({ n: count() }).from(s.orders).where(eq(s.orders.userId, userId)))[0]!.n

describe('the cart on the server', () => {
	test("a guest's cart lives in the session and joins the account's at sign-in", async () => {
		const user = await createUser()
		const add = async (cookie: string | undefined, fields: Record<string, string>) => {
			const { result } = await call(shop.action, formRequest('/shop', fields, { cookie }))
			const response = await unwrap(result)
			expect(response.status).toBe(302)
			return cookieFrom(response.headers, 'hmh_session') ?? cookie
		}
		let guest = await add(undefined, { productId: '2', color: '#DC2626', qrShape: 'circular', quantity: '2' })
		guest = await add(guest, { productId: '2', color: '#DC2626', qrShape: 'circular', quantity: '1' })
		guest = await add(guest, { productId: '3', color: '#2563EB', qrShape: 'square', quantity: '1' })
		await db.insert(s.carts).values({ userId: user.id, items: [item(2, 4), item(6, 1)] })

		const { result } = await call(
			login.action,
			formRequest('/login', { email: user.email, password: TEST_PASSWORD, redirectTo: '/shop?cart=open' }, { cookie: guest }),
		)
		const signedIn = await unwrap(result)
		expect(signedIn).toHaveRedirect('/shop?cart=open')
		const row = await db.query.carts.findFirst({ where: eq(s.carts.userId, user.id) })
		expect(row!.items.map((i) => [i.productId, i.quantity])).toEqual([
			[2, 7],
			[6, 1],
			[3, 1],
		])
	})

	test('bad options are refused beside the field and change nothing', async () => {
		const { user, cookie } = await shopper()
		const { result, context } = await call(
			shop.action,
			formRequest('/shop', { productId: '2', customText: 'ABCDEFGHIJKLMNOPQ', quantity: '1' }, { cookie }),
		)
		const refused = await unwrap(result)
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({
			result: { initialValue: { productId: '2' }, error: { customText: ['Too long: 17/16 letters'] } },
		})
		expect(context.get(requestToastContext)).toMatchObject({ type: 'error', description: 'Too long: 17/16 letters' })
		const bad: Array<Record<string, string>> = [
			{ productId: '999' },
			{ productId: '2', color: 'red' },
			{ productId: '2', quantity: '0' },
			{ productId: '2', qrShape: 'triangle' },
		]
		for (const fields of bad) {
			expect(
				(await unwrap((await call(shop.action, formRequest('/shop', fields, { cookie }))).result)).status,
				JSON.stringify(fields),
			).toBe(400)
		}
		expect(await db.query.carts.findFirst({ where: eq(s.carts.userId, user.id) })).toBeUndefined()
	})
})

describe('the cart form', () => {
	test('an unknown or missing intent is a 400 that says so, keeps the typed draft and changes nothing', async () => {
		const { user, cookie } = await shopper()
		await db.insert(s.carts).values({ userId: user.id, items: [item(2)] })
		for (const intent of ['explode', 'explode:1', undefined]) {
			const fields = { ...(intent ? { intent } : {}), returnTo: '/cart', name: 'Rosa Typed' }
			const { result, context } = await call(cart.action, formRequest('/cart', fields, { cookie }))
			const refused = await unwrap(result)
			expect(refused.status, String(intent)).toBe(400)
			expect(refused.body).toMatchObject({ result: { error: { intent: ['Unknown cart action.'] } } })
			expect(context.get(requestToastContext)).toMatchObject({ type: 'error', title: 'Cart', description: 'Unknown cart action.' })
		}
		const view = (await unwrap((await call(cart.loader, getRequest('/cart', cookie))).result)).body as { draft: Record<string, string> }
		expect(view.draft).toMatchObject({ name: 'Rosa Typed' })
		expect((await db.query.carts.findFirst({ where: eq(s.carts.userId, user.id) }))!.items).toEqual([item(2)])
	})

	test('a line is changed by the key its button names; an unknown discount is refused beside the field', async () => {
		const { user, cookie } = await shopper()
		await db.insert(s.carts).values({ userId: user.id, items: [item(2, 2), item(3, 1)] })
		const post = (fields: Record<string, string>) => call(cart.action, formRequest('/cart', { returnTo: '/cart', ...fields }, { cookie }))
		const lines = async () =>
			(await db.query.carts.findFirst({ where: eq(s.carts.userId, user.id) }))!.items.map((i) => [i.productId, i.quantity])
		expect(await unwrap((await post({ intent: `increase:${lineKey(item(2))}` })).result)).toHaveRedirect('/cart')
		expect(await lines()).toEqual([
			[2, 3],
			[3, 1],
		])
		await post({ intent: `decrease:${lineKey(item(3))}` })
		expect(await lines()).toEqual([[2, 3]])
		const { result, context } = await post({ intent: 'apply-discount', discountInput: 'nope' })
		expect(await unwrap(result)).toMatchObject({ status: 400, body: { result: { error: { discountInput: ['Invalid discount code'] } } } })
		expect(context.get(requestToastContext)).toMatchObject({ title: 'Discount Code', description: 'Invalid discount code' })
		const applied = await unwrap((await post({ intent: 'apply-discount', discountInput: 'free72' })).result)
		await expect(applied).toSendToast({ title: 'Discount Applied!' })
	})
})

describe('orders', () => {
	test('are recorded from the server’s prices, with a confirmation number and e-mail', async () => {
		const { user, code } = await shopper()
		const result = await createShopOrder(user.id, {
			items: [item(2, 2), item(6, 1, { addSticker: true })],
			address: ADDRESS,
			shippingMethod: 'express',
			selectedQrCodeId: code.id,
			idempotencyKey: randomUUID(),
		})
		expect(result).toMatchObject({ outcome: 'placed', order: { free72: false } })
		expect(result.order.confirmationNumber).toMatch(/^HMH-[A-Z0-9]{8}$/)
		const order = await db.query.orders.findFirst({ where: eq(s.orders.id, result.order.id) })
		expect(order).toMatchObject({
			userId: user.id,
			customerEmail: user.email,
			subtotalCents: 2500,
			discountCents: 0,
			shippingCents: 1300,
			totalCents: 3800,
			shippingMethod: 'express',
			shippingCountry: 'US',
			selectedQrCodeId: code.id,
			fulfillmentStatus: 'pending',
			isFree: true,
		})
		const lines = await db.select().from(s.orderItems).where(eq(s.orderItems.orderId, result.order.id))
		expect(lines.map((l) => [l.name, l.quantity, l.unitPriceCents, l.addSticker])).toEqual([
			['Small Medical QR Sticker (2x2 in)', 2, 500, false],
			['Medical Alert Card - Metal', 1, 1500, true],
		])
		const mail = await db.query.emails.findFirst({ where: messagesTo(user.email) })
		expect(mail).toMatchObject({ emailType: 'order-confirmation', subject: `Your order ${result.order.confirmationNumber} is confirmed` })
	})

	test('the same checkout submitted twice, or at once, makes one order', async () => {
		const { user, code } = await shopper()
		const input = {
			items: [item(2)],
			address: ADDRESS,
			shippingMethod: 'standard',
			selectedQrCodeId: code.id,
			idempotencyKey: randomUUID(),
		}
		const results = await Promise.all([createShopOrder(user.id, input), createShopOrder(user.id, input), createShopOrder(user.id, input)])
		expect(new Set(results.map((r) => r.order.confirmationNumber)).size).toBe(1)
		expect(results.filter((r) => r.outcome === 'placed')).toHaveLength(1)
		expect(await createShopOrder(user.id, input)).toMatchObject({ outcome: 'alreadyPlaced' })
		expect(await ordersOf(user.id)).toBe(1)
	})

	test('the same key from two people makes an order for each, stored as the client sent it', async () => {
		const [ada, bob] = [await shopper(), await shopper()]
		const idempotencyKey = randomUUID()
		const order = (who: typeof ada) =>
			createShopOrder(who.user.id, {
				items: [item(2)],
				address: ADDRESS,
				shippingMethod: 'standard',
				selectedQrCodeId: who.code.id,
				idempotencyKey,
			})
		const [first, second] = [await order(ada), await order(bob)]
		expect([first, second]).toMatchObject([{ outcome: 'placed' }, { outcome: 'placed' }])
		const keys = await db.select({ userId: s.orders.userId }).from(s.orders).where(eq(s.orders.idempotencyKey, idempotencyKey))
		expect(keys.map((k) => k.userId).sort()).toEqual([ada.user.id, bob.user.id].sort())
	})

	test('FREE72 marks a free order and waives shipping', async () => {
		const { user, code, cookie } = await shopper()
		const body = specShopOrder(code.id, { quantity: 2 })
		const created = await json(createOrderApi.action, 'POST', '/api/create-shop-order', body, cookie)
		expect(created.status).toBe(201)
		expect(created.body.checkoutUrl).toMatch(/^\/order-complete\?order=HMH-[A-Z0-9]{8}$/)
		const order = await db.query.orders.findFirst({ where: eq(s.orders.userId, user.id) })
		expect(order).toMatchObject({ subtotalCents: 1000, discountCents: 0, shippingCents: 600, totalCents: 1600, isFree: true })
		// Figures that are not even numbers are the client's business too.
		const other = await shopper()
		const odd = {
			...body,
			subtotal: 'lots',
			totalAmount: -5,
			items: [{ ...body.items[0], price: 'free' }],
			selectedQrCodeId: `${other.code.id}:x`,
		}
		expect((await json(createOrderApi.action, 'POST', '/api/create-shop-order', odd, other.cookie)).status).toBe(201)
	})

	test('a code that is not the shopper’s, an unknown discount, a missing address field and an empty cart are refused, with no order', async () => {
		const { user, code, cookie } = await shopper()
		const other = await shopper()
		const good = {
			items: [{ name: 'Small Medical QR Sticker (2x2 in)', quantity: 1, price: 5 }],
			subtotal: 5,
			discountCode: null,
			discountAmount: 0,
			shippingCost: 6,
			totalAmount: 11,
			shippingMethod: 'standard',
			shippingCountry: 'US',
			shippingAddress: ADDRESS,
			selectedQrCodeId: String(code.id),
		}
		const cases: Array<[Record<string, unknown>, number, string]> = [
			[{ items: [{ name: 'No Such Product', quantity: 1, price: 0 }] }, 400, 'One of the items in your cart is no longer available.'],
			[{ selectedQrCodeId: String(other.code.id) }, 400, 'Please add items to cart and select a QR code'],
			[{ selectedQrCodeId: '' }, 400, 'Please add items to cart and select a QR code'],
			[{ discountCode: 'NOPE' }, 400, 'Invalid discount code'],
			[{ shippingAddress: { ...ADDRESS, city: '' } }, 400, 'Please complete your address information'],
			[{ shippingAddress: { ...ADDRESS, country: 'ZA' } }, 400, 'Please complete your address information'],
			[{ items: [] }, 400, 'Please add items to cart and select a QR code'],
			[
				{ shippingMethod: 'overnight', shippingCountry: 'GB', shippingAddress: { ...ADDRESS, country: 'GB' } },
				400,
				'No shipping options available for selected country',
			],
		]
		for (const [change, status, message] of cases) {
			const refused = await json(createOrderApi.action, 'POST', '/api/create-shop-order', { ...good, ...change }, cookie)
			expect(refused, JSON.stringify(change)).toMatchObject({ status, body: { message } })
		}
		expect(await ordersOf(user.id)).toBe(0)
		expect((await json(createOrderApi.action, 'POST', '/api/create-shop-order', good)).status).toBe(401)
		expect((await json(createOrderApi.action, 'POST', '/api/create-shop-order', '{oops', cookie)).status).toBe(400)
		expect((await json(createOrderApi.action, 'POST', '/api/create-shop-order', good, cookie)).status).toBe(201)
	})

	test('an empty checkout marks the QR code and the address fields at once', async () => {
		const { user, cookie } = await shopper()
		await db.insert(s.carts).values({ userId: user.id, items: [item(2)] })
		const fields = {
			intent: 'checkout',
			returnTo: '/shop?cart=open',
			name: '',
			address1: '',
			city: '',
			postalCode: '',
			country: 'US',
			shippingMethod: 'standard',
		}
		const { result, context } = await call(cart.action, formRequest('/cart', fields, { cookie }))
		const refused = await unwrap(result)
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({
			result: {
				error: {
					selectedQrCodeId: ['Please add items to cart and select a QR code'],
					address1: ['Address is required'],
					postalCode: ['Postal code is required'],
				},
			},
		})
		expect(context.get(requestToastContext)).toMatchObject({
			title: 'Cannot Checkout',
			description: 'Please add items to cart and select a QR code',
		})
		expect(await ordersOf(user.id)).toBe(0)
	})

	test('the checkout form refuses an incomplete address with the spec’s toast and keeps what was typed', async () => {
		const { user, code, cookie } = await shopper()
		await db.insert(s.carts).values({ userId: user.id, items: [item(2)] })
		const fields = {
			intent: 'checkout',
			returnTo: '/shop?cart=open',
			name: 'Rosa',
			address1: '',
			city: 'Springfield',
			postalCode: '',
			country: 'US',
			shippingMethod: 'standard',
			selectedQrCodeId: `${code.id}:x`,
		}
		const { result, context } = await call(cart.action, formRequest('/cart', fields, { cookie }))
		const refused = await unwrap(result)
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({
			result: { error: { address1: ['Address is required'], postalCode: ['Postal code is required'] } },
		})
		expect(context.get(requestToastContext)).toMatchObject({
			title: 'Address Required',
			description: 'Please complete your address information',
		})
		const view = (await unwrap((await call(cart.loader, getRequest('/cart', cookie))).result)).body as { draft: Record<string, string> }
		expect(view.draft).toMatchObject({ name: 'Rosa', city: 'Springfield' })
		expect(await ordersOf(user.id)).toBe(0)

		const placed = await unwrap(
			(
				await call(
					cart.action,
					formRequest('/cart', { ...fields, address1: '12 Elm Street', postalCode: '62701', checkoutKey: 'k1' }, { cookie }),
				)
			).result,
		)
		expect(placed.status).toBe(302)
		expect(placed).toHaveRedirect(/^\/order-complete\?order=HMH-/)
		await call(
			cart.action,
			formRequest('/cart', { ...fields, address1: '12 Elm Street', postalCode: '62701', checkoutKey: 'k1' }, { cookie }),
		)
		expect(await ordersOf(user.id)).toBe(1)
	})
})

describe('discount codes', () => {
	test('POST /api/validate-discount', async () => {
		expect(await json(discountApi.action, 'POST', '/api/validate-discount', { code: ' ', subtotal: 10 })).toMatchObject({
			status: 400,
			body: { message: 'Please enter a discount code' },
		})
		expect(await json(discountApi.action, 'POST', '/api/validate-discount', { code: 'NOPE', subtotal: 10 })).toMatchObject({
			status: 404,
			body: { message: 'Invalid discount code' },
		})
		expect(await json(discountApi.action, 'POST', '/api/validate-discount', { code: 'free72', subtotal: 10 })).toMatchObject({
			status: 200,
			body: { discount: { code: 'FREE72', type: 'percentage', value: 100 }, discountAmount: 10, waivesShipping: true },
		})
	})
})

describe('address search', () => {
	let server: Server
	let base = ''
	const seen: string[] = []
	beforeAll(async () => {
		server = createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://x')
			const q = url.searchParams.get('q') ?? ''
			seen.push(`${url.pathname}?${url.searchParams}`)
			if (q.startsWith('broken')) return void res.writeHead(500).end('oops')
			res.setHeader('content-type', 'application/json')
			if (q.startsWith('nothing')) return void res.end('[]')
			res.end(
				JSON.stringify([
					{
						display_name: '12, Elm Street, Springfield, Illinois, 62701, United States',
						address: {
							house_number: '12',
							road: 'Elm Street',
							city: 'Springfield',
							state: 'Illinois',
							postcode: '62701',
							country: 'United States',
						},
					},
				]),
			)
		})
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	})
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

	test('asks a Nominatim-compatible service and passes its suggestions on', async () => {
		const [found] = await searchAddresses('12 Elm Street', base)
		expect(found).toMatchObject({
			display_name: expect.stringContaining('Springfield'),
			address: { road: 'Elm Street', postcode: '62701' },
		})
		expect(seen.at(-1)).toBe('/search?q=12+Elm+Street&format=jsonv2&addressdetails=1&limit=5')
	})

	test('a failing, empty or unreachable service gives the one suggestion built from the typed text', async () => {
		expect(await searchAddresses('broken 5 Main St', base)).toEqual([
			{ display_name: 'broken 5 Main St', address: { road: 'broken 5 Main St' } },
		])
		expect(await searchAddresses('nothing here', base)).toEqual([{ display_name: 'nothing here', address: { road: 'nothing here' } }])
		expect(await searchAddresses('7 Ocean Drive', 'http://127.0.0.1:1')).toEqual([
			{ display_name: '7 Ocean Drive', address: { house_number: '7', road: 'Ocean Drive' } },
		])
	})

	test('POST /api/address-suggestions wants 3 or more characters', async () => {
		expect((await json(suggestionsApi.action, 'POST', '/api/address-suggestions', { query: 'ab' })).status).toBe(400)
		expect(await json(suggestionsApi.action, 'POST', '/api/address-suggestions', { query: '12 Elm Street' })).toMatchObject({
			status: 200,
			body: { suggestions: [{ display_name: '12 Elm Street' }] },
		})
	})
})
