import type { CartItem } from './cart.ts'
import { shippingOption } from './shipping.ts'

export type Discount = { code: string; type: 'percentage' | 'fixed'; value: number; description: string; marksFreeOrder?: boolean }
export type PricedProduct = { id: number; name: string; priceCents: number }

/** Spec 000 §9: a percentage of the subtotal; a fixed amount capped at the subtotal; 100% or more also waives shipping. */
export function discountAmount(discount: Discount | null, subtotalCents: number) {
	if (!discount) return { discountCents: 0, waivesShipping: false }
	const raw = discount.type === 'percentage' ? Math.round((subtotalCents * discount.value) / 100) : discount.value
	return {
		discountCents: Math.max(0, Math.min(subtotalCents, raw)),
		waivesShipping: discount.type === 'percentage' && discount.value >= 100,
	}
}

export type Totals = {
	lines: Array<CartItem & { name: string; unitPriceCents: number }>
	subtotalCents: number
	discountCents: number
	shippingCents: number
	totalCents: number
}

/** What an order costs, from the catalogue's prices: the only totals the server ever trusts. */
export function orderTotals(
	items: CartItem[],
	products: PricedProduct[],
	shipping: { country: string; method: string },
	discount: Discount | null,
): Totals | { error: 'unknown-product' | 'no-shipping' } {
	const lines: Totals['lines'] = []
	for (const item of items) {
		const product = products.find((p) => p.id === item.productId)
		if (!product) return { error: 'unknown-product' }
		lines.push({ ...item, name: product.name, unitPriceCents: product.priceCents })
	}
	const option = shippingOption(shipping.country, shipping.method)
	if (!option) return { error: 'no-shipping' }
	const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0)
	const { discountCents, waivesShipping } = discountAmount(discount, subtotalCents)
	const shippingCents = waivesShipping ? 0 : option.cents
	return { lines, subtotalCents, discountCents, shippingCents, totalCents: subtotalCents - discountCents + shippingCents }
}

export const formatCents = (cents: number) => `$${(cents / 100).toFixed(2)}`
