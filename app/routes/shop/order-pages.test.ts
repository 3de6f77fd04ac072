import { randomUUID } from 'node:crypto'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { CartItemSchema } from '#app/domain/shop/cart.ts'
import { assignQrCodes } from '#app/domain/admin/orders.server.ts'
import { createStickerCodes } from '#app/domain/qr/codes.server.ts'
import type { PresentedOrder } from '#app/domain/shop/order-view.server.ts'
import { carriedCodeSentence, trackingStatus } from '#app/domain/shop/orders.ts'
import { createShopOrder } from '#app/domain/shop/orders.server.ts'
import * as orderComplete from '#app/routes/shop/order-complete.tsx'
import * as tracking from '#app/routes/shop/order-tracking.tsx'
import * as requestProducts from '#app/routes/shop/request-products.tsx'
import { OrderFacts } from '#app/routes/shop/order-details.tsx'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { call, claimant, cookieFrom, createCode, createUser, formRequest, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'

const ADDRESS = { name: 'Rosa Shopper', address1: '12 Elm Street', city: 'Springfield', postalCode: '62701', country: 'US' }

async function orderFor() {
	const user = await createUser()
	const sticker = await createCode()
	await claimCode(claimant(user.id), sticker.pin)
	const code = (await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, sticker.pin) }))!
	await db.insert(s.carts).values({ userId: user.id, items: [CartItemSchema.parse({ productId: 2, quantity: 2 })] })
	const result = await createShopOrder(user.id, {
		items: [CartItemSchema.parse({ productId: 2, quantity: 2 })],
		address: ADDRESS,
		shippingMethod: 'standard',
		selectedQrCodeId: code.id,
		idempotencyKey: randomUUID(),
	})
	return { user, code, order: result.order, number: result.order.confirmationNumber, cookie: await sessionCookie(user.id) }
}

async function track(fields: Record<string, string>, cookie?: string) {
	const { result, context } = await call(tracking.action, formRequest('/order-tracking', fields, { cookie }))
	return { ...(await unwrap(result)), toast: context.get(requestToastContext) }
}

describe('order tracking', () => {
	test('a filled honeypot gets the answer of a wrong pair, even for a real order', async () => {
		const { user, number } = await orderFor()
		const answer = await track({ confirmationNumber: number, email: user.email, website: 'https://spam.example' })
		expect(answer.status).toBe(404)
		expect(answer.headers.get('set-cookie')).toBeNull()
		expect(answer.toast).toMatchObject({ type: 'error', description: expect.stringMatching(/^No order matches/) })
	})

	test('finds a real order by its number and e-mail, in any case, and shows its progress', async () => {
		const { user, number, code, order } = await orderFor()
		const found = await track({ confirmationNumber: ` ${number.toLowerCase()} `, email: user.email.toUpperCase() })
		expect(found.status).toBe(302)
		expect(found).toHaveRedirect(`/order-tracking?number=${number}`)
		const cookie = cookieFrom(found.headers, 'hmh_session')!
		const page = (await unwrap((await call(tracking.loader, getRequest(`/order-tracking?number=${number}`, cookie))).result)).body as {
			order: PresentedOrder
		}
		expect(page.order.status).toBe('Order Placed')
		expect(page.order.steps.map((st) => st.completed)).toEqual([true, true, false, false, false])
		expect(page.order.items).toHaveLength(1)
		expect(page.order.carries).toBe(`Your order will carry Sticker #${code.id}, the code you chose at checkout.`)
		const [spare] = await createStickerCodes(1)
		await assignQrCodes(order.id, [spare!.id, code.id])
		const assigned = (await unwrap((await call(tracking.loader, getRequest(`/order-tracking?number=${number}`, cookie))).result)).body as {
			order: PresentedOrder
		}
		expect(assigned.order.carries).toBe(
			`Your order carries Sticker #${code.id}, the code you chose at checkout. It also comes with Sticker #${spare!.id}.`,
		)
		expect(renderToString(createElement(OrderFacts, { order: assigned.order }))).toContain(`Your order carries Sticker #${code.id}`)
		expect(JSON.stringify(assigned.order)).not.toContain(code.pin)
		// Without the proof of the e-mail, the same URL shows nothing.
		const stranger = (await unwrap((await call(tracking.loader, getRequest(`/order-tracking?number=${number}`))).result)).body as {
			order: unknown
		}
		expect(stranger.order).toBeNull()
	})

	test('a wrong e-mail and an unknown number get the same answer; an empty number its own message', async () => {
		const { number } = await orderFor()
		const wrongEmail = await track({ confirmationNumber: number, email: 'nobody@example.com' })
		const unknown = await track({ confirmationNumber: 'HMH-ZZZZZZZZ', email: 'nobody@example.com' })
		expect(wrongEmail.status).toBe(404)
		const answer = (r: { body: unknown }) => (r.body as { result: { error: unknown } }).result.error
		expect(answer(wrongEmail)).toEqual(answer(unknown))
		expect(unknown.status).toBe(404)
		expect(wrongEmail.toast).toMatchObject({ title: 'Order Not Found' })
		const empty = await track({ confirmationNumber: '  ', email: 'nobody@example.com' })
		expect(empty.status).toBe(400)
		expect(empty.toast).toMatchObject({
			title: 'Confirmation Number Required',
			description: 'Please enter your confirmation number to track your order',
		})
	})

	test('the QR code sentence: the chosen code first; a cancelled order or one without codes says nothing', () => {
		const chosen = { id: 12, label: 'Sticker #12' }
		const other = { id: 13, label: 'Sticker #13' }
		expect(carriedCodeSentence({ status: 'processing', chosen, assigned: [other] })).toBe(
			'Your order will carry Sticker #12, the code you chose at checkout.',
		)
		expect(carriedCodeSentence({ status: 'shipped', chosen, assigned: [chosen] })).toBe(
			'Your order carries Sticker #12, the code you chose at checkout.',
		)
		expect(carriedCodeSentence({ status: 'shipped', chosen, assigned: [other] })).toBe('Your order comes with Sticker #13.')
		expect(carriedCodeSentence({ status: 'shipped', chosen: null, assigned: [] })).toBeNull()
		expect(carriedCodeSentence({ status: 'cancelled', chosen, assigned: [chosen] })).toBeNull()
	})

	test('the steps follow the fulfilment status', () => {
		expect(trackingStatus('pending')).toEqual({ label: 'Order Placed', done: 2 })
		expect(trackingStatus('processing').done).toBe(3)
		expect(trackingStatus('fulfilled').done).toBe(3)
		expect(trackingStatus('shipped')).toEqual({ label: 'Shipped', done: 4 })
		expect(trackingStatus('delivered').done).toBe(5)
		expect(trackingStatus('cancelled')).toEqual({ label: 'Cancelled', done: 0 })
	})
})

describe('order complete', () => {
	test('shows the order only to the person who placed it; the order emptied their cart', async () => {
		const { user, number, cookie } = await orderFor()
		expect((await db.query.carts.findFirst({ where: eq(s.carts.userId, user.id) }))!.items).toEqual([])
		const own = await unwrap((await call(orderComplete.loader, getRequest(`/order-complete?order=${number}`, cookie))).result)
		expect(own.body).toMatchObject({ state: 'found', number })
		const other = await orderFor()
		const notTheirs = await unwrap((await call(orderComplete.loader, getRequest(`/order-complete?order=${number}`, other.cookie))).result)
		expect(notTheirs).toMatchObject({ status: 404, body: { state: 'not-found' } })
		expect(JSON.stringify(notTheirs.body)).not.toContain('Elm Street')
		const signedOut = await unwrap((await call(orderComplete.loader, getRequest(`/order-complete?order=${number}`))).result)
		expect(signedOut.body).toMatchObject({ state: 'signed-out' })
	})

	test('/shop-success, the return of a shop checkout, shows the latest own order without a number; without one, everyone gets the same 200 page', async () => {
		const { number, cookie } = await orderFor()
		const latest = await unwrap((await call(orderComplete.loader, getRequest('/shop-success', cookie))).result)
		expect(latest.body).toMatchObject({ state: 'found', number })
		const newcomer = await createUser()
		const none = await unwrap((await call(orderComplete.loader, getRequest('/shop-success', await sessionCookie(newcomer.id)))).result)
		const visitor = await unwrap((await call(orderComplete.loader, getRequest('/shop-success'))).result)
		expect(none).toMatchObject({ status: 200, body: { state: 'none', signedIn: true } })
		expect(visitor).toMatchObject({ status: 200, body: { state: 'none', signedIn: false } })
		// A number that is not the person's own is still not found; a visitor is asked to sign in.
		const wrong = await unwrap(
			(await call(orderComplete.loader, getRequest(`/shop-success?order=${number}`, await sessionCookie(newcomer.id)))).result,
		)
		expect(wrong).toMatchObject({ status: 404, body: { state: 'not-found' } })
		expect((await unwrap((await call(orderComplete.loader, getRequest(`/shop-success?order=${number}`))).result)).body).toMatchObject({
			state: 'signed-out',
		})
	})
})

describe('request products', () => {
	test('a QR URL, a valid one, and a sticker size are required; then the line joins the cart', async () => {
		const { user, code, cookie } = await orderFor()
		const add = async (fields: Record<string, string>) => {
			const { result, context } = await call(requestProducts.action, formRequest('/request-products', fields, { cookie }))
			return { ...(await unwrap(result)), toast: context.get(requestToastContext) }
		}
		const scanUrl = `http://localhost:3000/scan/${code.token}`
		expect((await add({ productId: '1', qrCodeUrl: '', color: '#DC2626', 'size-1': 'small' })).toast).toMatchObject({
			title: 'QR Code URL Required',
			description: 'Please enter your QR code URL to request products.',
		})
		expect((await add({ productId: '1', qrCodeUrl: 'not a url', color: '#DC2626', 'size-1': 'small' })).toast).toMatchObject({
			title: 'Invalid URL',
			description: 'Please enter a valid QR code URL.',
		})
		const noSize = await add({ productId: '1', qrCodeUrl: scanUrl, color: '#DC2626' })
		expect(noSize.status).toBe(400)
		expect(noSize.toast).toMatchObject({ title: 'Size Required', description: 'Please select a sticker size before adding to cart.' })
		expect(noSize.body).toMatchObject({
			productId: 1,
			result: { error: { stickerSize: ['Please select a sticker size before adding to cart.'] }, initialValue: { qrCodeUrl: scanUrl } },
		})
		expect((await add({ productId: '2', qrCodeUrl: scanUrl, color: '#DC2626' })).status).toBe(400)
		// A colour off the palette and a product that is not on this page: said without a title, beside what was at fault.
		const offPalette = await add({ productId: '1', qrCodeUrl: scanUrl, color: '#123456', 'size-1': 'small' })
		expect(offPalette).toMatchObject({ status: 400, body: { result: { error: { color: ['Please choose a colour from the palette'] } } } })
		expect(offPalette.toast).toMatchObject({ type: 'error', description: 'Please choose a colour from the palette' })
		expect(offPalette.toast?.title).toBeUndefined()
		const unknown = await add({ productId: '999999', qrCodeUrl: scanUrl, color: '#DC2626' })
		expect(unknown).toMatchObject({
			status: 400,
			body: { productId: 999999, result: { error: { productId: ['This product is not available.'] } } },
		})
		expect(unknown.toast).toMatchObject({ type: 'error', description: 'This product is not available.' })
		expect(unknown.toast?.title).toBeUndefined()
		expect((await db.query.carts.findFirst({ where: eq(s.carts.userId, user.id) }))!.items).toEqual([])

		expect((await add({ productId: '1', qrCodeUrl: scanUrl, color: '#2563EB', 'size-1': 'large' })).status).toBe(302)
		expect((await add({ productId: '1', qrCodeUrl: scanUrl, color: '#2563EB', 'size-1': 'large' })).status).toBe(302)
		expect((await add({ productId: '1', qrCodeUrl: scanUrl, color: '#2563EB', 'size-1': 'small' })).status).toBe(302)
		// The profile goes back into the address only when it is an id (a long one made a header no client read).
		const back = async (profileId: string) =>
			(await add({ productId: '1', qrCodeUrl: scanUrl, color: '#2563EB', 'size-1': 'large', profileId })).headers.get('location')
		expect(await back('42')).toContain('profileId=42')
		expect(await back('9'.repeat(20_000))).not.toContain('profileId')
		const items = (await db.query.carts.findFirst({ where: eq(s.carts.userId, user.id) }))!.items
		expect(items.map((i) => [i.productId, i.stickerSize, i.quantity, i.qrCodeUrl])).toEqual([
			[1, 'large', 4, scanUrl],
			[1, 'small', 1, scanUrl],
		])
	})
})
