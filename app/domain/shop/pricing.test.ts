import { describe, expect, test } from 'vitest'
import { CartItemSchema } from './cart.ts'
import { discountAmount, orderTotals, type Discount } from './pricing.ts'

const products = [
	{ id: 2, name: 'Small sticker', priceCents: 500 },
	{ id: 6, name: 'Metal card', priceCents: 1500 },
]
const items = [CartItemSchema.parse({ productId: 2, quantity: 2 }), CartItemSchema.parse({ productId: 6, quantity: 1 })]
const percent = (value: number): Discount => ({ code: 'P', type: 'percentage', value, description: '' })
const fixed = (cents: number): Discount => ({ code: 'F', type: 'fixed', value: cents, description: '' })

describe('discounts (spec 000 §9)', () => {
	test('a percentage takes that share of the subtotal', () => {
		expect(discountAmount(percent(10), 2500)).toEqual({ discountCents: 250, waivesShipping: false })
		expect(discountAmount(percent(15), 999)).toEqual({ discountCents: 150, waivesShipping: false })
	})
	test('a fixed amount is capped at the subtotal', () => {
		expect(discountAmount(fixed(700), 2500).discountCents).toBe(700)
		expect(discountAmount(fixed(9000), 2500).discountCents).toBe(2500)
	})
	test('100% or more takes everything and waives shipping', () => {
		expect(discountAmount(percent(100), 2500)).toEqual({ discountCents: 2500, waivesShipping: true })
		expect(discountAmount(percent(150), 2500)).toEqual({ discountCents: 2500, waivesShipping: true })
		expect(discountAmount(fixed(9000), 2500).waivesShipping).toBe(false)
	})
})

describe('order totals', () => {
	test('catalogue prices, the shipping table and the discount', () => {
		expect(orderTotals(items, products, { country: 'US', method: 'standard' }, null)).toMatchObject({
			subtotalCents: 2500,
			discountCents: 0,
			shippingCents: 600,
			totalCents: 3100,
		})
		expect(orderTotals(items, products, { country: 'CA', method: 'express' }, percent(10))).toMatchObject({
			subtotalCents: 2500,
			discountCents: 250,
			shippingCents: 1900,
			totalCents: 4150,
		})
		expect(orderTotals(items, products, { country: 'DE', method: 'standard' }, percent(100))).toMatchObject({
			totalCents: 0,
			shippingCents: 0,
		})
		expect(orderTotals(items, products, { country: 'US', method: 'overnight' }, fixed(9000))).toMatchObject({
			discountCents: 2500,
			shippingCents: 2500,
			totalCents: 2500,
		})
	})
	test('no shipping for the country or method, or an unknown product, is an error', () => {
		expect(orderTotals(items, products, { country: 'ZZ', method: 'standard' }, null)).toEqual({ error: 'no-shipping' })
		expect(orderTotals(items, products, { country: 'GB', method: 'overnight' }, null)).toEqual({ error: 'no-shipping' })
		expect(orderTotals([CartItemSchema.parse({ productId: 99 })], products, { country: 'US', method: 'standard' }, null)).toEqual({
			error: 'unknown-product',
		})
	})
})
