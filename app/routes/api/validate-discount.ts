import { validateDiscount } from '#app/domain/shop/discounts.server.ts'
import { discountAmount } from '#app/domain/shop/pricing.ts'
import { DiscountCodeSchema } from '#app/domain/shop/schemas.ts'
import { readBody, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/validate-discount'

/** POST { code, subtotal }: { discount: { code, type, value, description } } or { message }. Fixed values are in dollars. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request }) => {
		const body = await readBody(request)
		const parsed = DiscountCodeSchema.safeParse({ code: body.code })
		if (!parsed.success) return validationError(parsed.error.issues)
		const discount = await validateDiscount(parsed.data.code)
		const subtotal = Number(body.subtotal)
		const amount = Number.isFinite(subtotal) && subtotal >= 0 ? discountAmount(discount, Math.round(subtotal * 100)) : null
		return Response.json({
			discount: {
				code: discount.code,
				type: discount.type,
				value: discount.type === 'fixed' ? discount.value / 100 : discount.value,
				description: discount.description,
			},
			...(amount ? { discountAmount: amount.discountCents / 100, waivesShipping: amount.waivesShipping } : {}),
		})
	},
})

export const loader = api.loader
export const action = api.action
