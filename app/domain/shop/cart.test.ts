import { describe, expect, test } from 'vitest'
import { addToCart, cartCount, CartItemSchema, lineKey, parseCart, removeLine, setLineQuantity, type CartItem } from './cart.ts'

const item = (overrides: Partial<CartItem> = {}): CartItem => CartItemSchema.parse({ productId: 2, quantity: 1, ...overrides })

describe('cart lines', () => {
	test('an identical product, colour, sticker, background and shape merges; any difference is a new line', () => {
		let cart = addToCart([], item())
		cart = addToCart(cart, item({ quantity: 2 }))
		expect(cart).toHaveLength(1)
		expect(cart[0]!.quantity).toBe(3)
		for (const variant of [
			{ color: '#2563EB' },
			{ addSticker: true },
			{ transparentBackground: true },
			{ qrShape: 'square' as const },
			{ productId: 3 },
			{ stickerSize: 'large' },
		]) {
			expect(addToCart(cart, item(variant)), JSON.stringify(variant)).toHaveLength(2)
		}
		expect(cartCount(addToCart(cart, item({ qrShape: 'square' })))).toBe(4)
	})

	test('colour case does not make a new line', () => {
		expect(lineKey(item({ color: '#dc2626' }))).toBe(lineKey(item({ color: '#DC2626' })))
	})

	test('a quantity of 0 or less removes the line; removal takes only that line', () => {
		const cart = addToCart([item()], item({ qrShape: 'square' }))
		expect(setLineQuantity(cart, lineKey(cart[0]!), 0)).toEqual([cart[1]])
		expect(setLineQuantity(cart, lineKey(cart[0]!), -3)).toEqual([cart[1]])
		expect(setLineQuantity(cart, lineKey(cart[0]!), 5)[0]!.quantity).toBe(5)
		expect(removeLine(cart, lineKey(cart[1]!))).toEqual([cart[0]])
	})

	test('quantities stay within 1 to 99', () => {
		expect(CartItemSchema.safeParse({ productId: 2, quantity: 0 }).success).toBe(false)
		expect(CartItemSchema.safeParse({ productId: 2, quantity: 100 }).error?.issues[0]?.message).toBe('Quantity must be between 1 and 99')
		expect(addToCart([item({ quantity: 98 })], item({ quantity: 5 }))[0]!.quantity).toBe(99)
	})

	test('custom text follows the 25/16 rule', () => {
		expect(CartItemSchema.safeParse({ productId: 2, customText: 'CALL 555 0100 NOW' }).success).toBe(true)
		expect(CartItemSchema.safeParse({ productId: 2, customText: 'ABCDEFGHIJKLMNOPQ' }).error?.issues[0]?.message).toBe(
			'Too long: 17/16 letters',
		)
		expect(CartItemSchema.safeParse({ productId: 2, customText: '1234567890 1234567890 123' }).success).toBe(true)
		expect(CartItemSchema.safeParse({ productId: 2, customText: '1234567890 1234567890 1234' }).error?.issues[0]?.message).toBe(
			'Too long: 26/25 characters',
		)
	})

	test('a stored cart that cannot be parsed is dropped; invalid lines are skipped', () => {
		expect(parseCart('{not json')).toEqual([])
		expect(parseCart('"a string"')).toEqual([])
		expect(parseCart(null)).toEqual([])
		expect(parseCart(JSON.stringify([item(), { productId: 'x' }, { productId: 3, quantity: 2 }]))).toHaveLength(2)
	})
})
