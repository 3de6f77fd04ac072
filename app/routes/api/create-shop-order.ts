import { createHash } from 'node:crypto'
import { z } from 'zod'
import { idSchema } from '#app/domain/profiles/schemas.ts'
import { CartItemSchema } from '#app/domain/shop/cart.ts'
import { listProducts } from '#app/domain/shop/cart.server.ts'
import { checkoutUrl } from '#app/domain/shop/orders.ts'
import { createShopOrder } from '#app/domain/shop/orders.server.ts'
import { CHECKOUT_MESSAGES, SelectedCodeIdSchema, ShippingAddressSchema, ShippingMethodSchema } from '#app/domain/shop/schemas.ts'
import { jsonError, readBody, requireApiUserId } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/create-shop-order'

// The client's own figures: accepted as the spec's client sends them (its shop shows every price as 0), never used.
const clientFigure = z.unknown().optional()

/** Spec 000 §7's payload. Items name their product by productId or, as the earlier app did, by name. */
const OrderRequestSchema = z.object({
	items: z
		.array(
			z.looseObject({
				productId: idSchema('Please choose a product').optional(),
				name: z.string().max(200).optional(),
				price: clientFigure,
			}),
		)
		.max(50),
	subtotal: clientFigure,
	discountCode: z.string().trim().max(40).nullish(),
	discountAmount: clientFigure,
	shippingCost: clientFigure,
	totalAmount: clientFigure,
	shippingMethod: ShippingMethodSchema,
	shippingCountry: z.string().trim().max(2).optional(),
	shippingAddress: z.record(z.string(), z.unknown()).default({}),
	selectedQrCodeId: z.unknown().optional(),
	idempotencyKey: z.string().trim().min(8).max(100).optional(),
})

/** POST: records the order on the server's own prices, shipping and discount rules; answers { checkoutUrl } or { message }. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request, context }) => {
		const userId = await requireApiUserId({ request, context })
		const body = await readBody(request)
		const parsed = OrderRequestSchema.safeParse(body)
		if (!parsed.success)
			return jsonError(400, parsed.error.issues[0]?.message ?? 'Invalid order', { errors: parsed.error.flatten().fieldErrors })
		const input = parsed.data

		const catalogue = await listProducts('any')
		const items = []
		for (const raw of input.items) {
			const product = catalogue.find((p) => (raw.productId ? p.id === raw.productId : p.name === raw.name))
			if (!product) return jsonError(400, 'One of the items in your cart is no longer available.')
			const item = CartItemSchema.safeParse({ ...raw, productId: product.id })
			if (!item.success) return jsonError(400, item.error.issues[0]!.message)
			items.push(item.data)
		}
		const address = ShippingAddressSchema.safeParse({ country: input.shippingCountry, ...input.shippingAddress })
		if (!address.success)
			return jsonError(400, CHECKOUT_MESSAGES.addressRequired.description, { errors: address.error.flatten().fieldErrors })

		const placed = await createShopOrder(userId, {
			items,
			address: address.data,
			shippingMethod: input.shippingMethod,
			discountCode: input.discountCode || null,
			selectedQrCodeId: SelectedCodeIdSchema.safeParse(input.selectedQrCodeId).data ?? null,
			// Without a key, the same checkout sent again (a retry, a double click) is recognised by its content.
			idempotencyKey: request.headers.get('idempotency-key')?.slice(0, 100) || input.idempotencyKey || contentKey(body),
		})
		return Response.json(
			{ checkoutUrl: checkoutUrl(placed.order), confirmationNumber: placed.order.confirmationNumber },
			{ status: placed.outcome === 'placed' ? 201 : 200 },
		)
	},
})

/** Identical content within the same 10 minutes counts as the same checkout. */
function contentKey(body: unknown) {
	const window = Math.floor(Date.now() / (10 * 60 * 1000))
	return `content:${createHash('sha256')
		.update(`${window}:${JSON.stringify(body)}`)
		.digest('base64url')}`
}

export const loader = api.loader
export const action = api.action
