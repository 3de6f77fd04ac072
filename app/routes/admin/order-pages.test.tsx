import { randomUUID } from 'node:crypto'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { createStickerCodes } from '#app/domain/qr/codes.server.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { parseCsv } from '#tests/csv.ts'
import { call, claimant, createUser, formRequest, getRequest, unwrap } from '#tests/factories.ts'
import * as orderDetail from './order-detail.tsx'
import * as orders from './orders.tsx'
import * as ordersCsv from './orders-csv.ts'
import * as slip from './shipping-document.tsx'

/** A shopper's order linked to a sticker they claimed (spec 000: selectedQrCodeId), as the shop writes it. */
async function chosenCodeOrder() {
	const buyer = await createUser()
	const [chosen, spare] = await createStickerCodes(2)
	await claimCode(claimant(buyer.id), chosen!.pin)
	const [order] = await db
		.insert(s.orders)
		.values({
			id: randomUUID(),
			confirmationNumber: `HMH-${randomUUID().slice(0, 8).toUpperCase()}`,
			userId: buyer.id,
			customerName: 'Rosa Shopper',
			customerEmail: buyer.email,
			subtotalCents: 500,
			shippingCents: 0,
			totalCents: 500,
			shippingMethod: 'standard',
			shippingCountry: 'US',
			shippingAddress: { name: 'Rosa Shopper', address1: '12 Elm Street', city: 'Springfield', postalCode: '62701', country: 'US' },
			selectedQrCodeId: chosen!.id,
		})
		.returning()
	await db.insert(s.orderItems).values({ orderId: order!.id, name: 'Small Medical QR Sticker (2x2 in)', quantity: 1, unitPriceCents: 500 })
	return { order: order!, chosen: chosen!, spare: spare!, label: `Sticker #${chosen!.id}` }
}

type StubComponent = Parameters<typeof createRoutesStub>[0][number]['Component']

/** A page module rendered on the server with its loader's data, as the browser gets it without JavaScript. */
function html(Component: StubComponent, path: string, loaderData: unknown, actionData?: unknown) {
	const Stub = createRoutesStub([{ id: 'page', path: path.split('?')[0], Component }])
	// React marks where adjacent text nodes meet; the text reads the same without the marks.
	return renderToString(
		<Stub
			initialEntries={[path]}
			hydrationData={{ loaderData: { page: loaderData }, ...(actionData ? { actionData: { page: actionData } } : {}) }}
		/>,
	).replaceAll('<!-- -->', '')
}

const loaded = async <A,>(handler: (args: A) => unknown, path: string, params: Record<string, string> = {}) =>
	(await call(handler, getRequest(path), params)).result

describe('/admin/orders/:orderId', () => {
	test('shows the chosen code (label, preview, scan link) and assigns it with a plain form; another claimed code is refused', async () => {
		const { order, chosen, label } = await chosenCodeOrder()
		const path = `/admin/orders/${order.id}`
		const page = html(orderDetail.default as never, path, await loaded(orderDetail.loader, path, { orderId: order.id }))
		expect(page).toContain('Shopper’s chosen code')
		expect(page).toContain(label)
		expect(page).toContain(`src="/api/admin/qr-codes/${chosen.id}/image"`)
		expect(page).toContain(chosen.scanUrl)
		expect(page).toContain('Not assigned yet.')
		expect(page).toContain(`<input type="hidden" name="qrCodeIds" value="${chosen.id}"/>`)
		expect(page).not.toContain(chosen.pin)

		// The assign dialog offers it first, filled in.
		const dialog = html(
			orderDetail.default as never,
			`${path}?dialog=assign`,
			await loaded(orderDetail.loader, path, { orderId: order.id }),
		)
		expect(dialog).toMatch(new RegExp(`name="qrCodeIds"[^>]*value="${chosen.id}"`))
		expect(dialog).toContain(`The shopper chose ${label}`)

		const other = await createUser()
		const [theirs] = await createStickerCodes(1)
		await claimCode(claimant(other.id), theirs!.pin)
		const refused = await call(orderDetail.action, formRequest(path, { intent: 'assign', qrCodeIds: String(theirs!.id) }), {
			orderId: order.id,
		})
		expect(await unwrap(refused.result)).toMatchObject({
			status: 409,
			body: { intent: 'assign', result: { error: { qrCodeIds: [`Code ${theirs!.id} is already claimed.`] } } },
		})
		// The dialog opens again with the message beside the codes and what was typed kept.
		const refusedPage = html(
			orderDetail.default as never,
			path,
			await loaded(orderDetail.loader, path, { orderId: order.id }),
			(await unwrap(refused.result)).body,
		)
		expect(refusedPage).toContain(`Code ${theirs!.id} is already claimed.`)
		expect(refusedPage).toMatch(new RegExp(`name="qrCodeIds"[^>]*value="${theirs!.id}"`))

		const assigned = await call(orderDetail.action, formRequest(path, { intent: 'assign', qrCodeIds: String(chosen.id) }), {
			orderId: order.id,
		})
		// Back on the page, at the Assign link (the browser focuses it without JavaScript).
		expect(assigned.result).toHaveRedirect(`${path}#assign-codes`)
		await expect(assigned.result).toSendToast({ title: 'QR Codes Assigned', description: `Assigned code ${chosen.id}.` })
		const after = html(orderDetail.default as never, path, await loaded(orderDetail.loader, path, { orderId: order.id }))
		expect(after).toContain('Assigned to this order.')
		expect(after).toContain(`Code ${chosen.id} · the shopper’s chosen code`)
		expect(after).not.toContain(chosen.pin)
	})
})

describe('/admin/orders/:orderId action: one schema, every intent', () => {
	test('an unknown or missing intent is a 400 with a message and a toast, never a redirect', async () => {
		const { order } = await chosenCodeOrder()
		const path = `/admin/orders/${order.id}`
		for (const fields of [{ intent: 'nope' }, {}] as Record<string, string>[]) {
			const { result, context } = await call(orderDetail.action, formRequest(path, fields), { orderId: order.id })
			const answer = await unwrap(result)
			expect(answer.status).toBe(400)
			expect(answer.body).toMatchObject({ result: { error: { intent: [UNKNOWN_ACTION] } } })
			expect(answer.headers.get('location')).toBeNull()
			// Without JavaScript the page renders the toast at once.
			expect(context.get(requestToastContext)).toMatchObject({ type: 'error', title: 'Update Failed', description: UNKNOWN_ACTION })
		}
		const page = html(orderDetail.default as never, path, await loaded(orderDetail.loader, path, { orderId: order.id }), {
			intent: null,
			result: { error: { intent: [UNKNOWN_ACTION] } },
		})
		expect(page).toContain(UNKNOWN_ACTION)
	})
})

describe('/admin/orders', () => {
	test('each order shows its chosen code’s label, preview and scan link', async () => {
		const { chosen, label } = await chosenCodeOrder()
		const page = html(orders.default as never, '/admin/orders', await loaded(orders.loader, '/admin/orders'))
		expect(page).toContain(`Chosen: ${label}`)
		expect(page).toContain(`src="/api/admin/qr-codes/${chosen.id}/image"`)
		expect(page).toContain(chosen.scanUrl)
	})
})

describe('/admin/order/:orderId (packing slip)', () => {
	test('names the chosen code and its scan link; it leads the codes, without a PIN', async () => {
		const { order, chosen, spare, label } = await chosenCodeOrder()
		const path = `/admin/order/${order.id}`
		const before = html(slip.default as never, path, await loaded(slip.loader, path, { orderId: order.id }))
		expect(before).toContain(`Chosen by the shopper: ${label} (${chosen.scanUrl}). Not assigned yet.`)

		await call(orderDetail.action, formRequest(`/admin/orders/${order.id}`, { intent: 'assign', qrCodeIds: `${spare.id}, ${chosen.id}` }), {
			orderId: order.id,
		})
		const page = html(slip.default as never, path, await loaded(slip.loader, path, { orderId: order.id }))
		expect(page).toContain(`Chosen by the shopper: ${label} (${chosen.scanUrl}). Assigned to this order.`)
		expect(page.indexOf(`alt="QR code ${chosen.id}"`)).toBeLessThan(page.indexOf(`alt="QR code ${spare.id}"`))
		expect(page).toContain(`PIN ${spare.pin}`)
		expect(page).not.toContain(chosen.pin)
	})
})

describe('/admin/orders.csv', () => {
	test('carries the chosen code, its label, scan link and status', async () => {
		const { order, chosen, label } = await chosenCodeOrder()
		const response = await unwrap(await loaded(ordersCsv.loader, '/admin/orders.csv'))
		const rows = parseCsv(response.body as string)
		const row = rows.find((r) => r[0] === order.confirmationNumber)!
		const column = (name: string) => row[rows[0]!.indexOf(name)]
		expect([column('chosenCode'), column('chosenCodeLabel'), column('chosenCodeScanUrl'), column('chosenCodeStatus')]).toEqual([
			String(chosen.id),
			label,
			chosen.scanUrl,
			'Not assigned yet.',
		])
	})
})
