import type { CartItem } from '#db/schema.ts'
import { QR_COLORS } from '#app/domain/qr/palette.ts'

export type { CartItem }

export const MAX_LINE_QUANTITY = 99

/**
 * Spec 000 §3: items with the same product, colour, sticker, background and shape are one line. The request page's
 * sticker size is part of it too, so two sizes never fold into one.
 */
export function lineKey(item: CartItem) {
	return [
		item.productId,
		item.color.toUpperCase(),
		item.addSticker ? 1 : 0,
		item.transparentBackground ? 1 : 0,
		item.qrShape,
		item.stickerSize ?? '',
	].join('|')
}

export function addToCart(items: CartItem[], item: CartItem): CartItem[] {
	const key = lineKey(item)
	const existing = items.find((line) => lineKey(line) === key)
	if (!existing) return [...items, item]
	return items.map((line) => (line === existing ? { ...line, quantity: Math.min(MAX_LINE_QUANTITY, line.quantity + item.quantity) } : line))
}

/** A quantity of 0 or less removes the line. */
export function setLineQuantity(items: CartItem[], key: string, quantity: number): CartItem[] {
	if (quantity <= 0) return removeLine(items, key)
	return items.map((line) => (lineKey(line) === key ? { ...line, quantity: Math.min(MAX_LINE_QUANTITY, Math.floor(quantity)) } : line))
}

export function removeLine(items: CartItem[], key: string) {
	return items.filter((line) => lineKey(line) !== key)
}

export function cartCount(items: CartItem[]) {
	return items.reduce((sum, line) => sum + line.quantity, 0)
}

/** What a product allows: the options of a line must be ones it has. */
export type ProductOptions = {
	name: string
	supportsSticker: boolean
	supportsTransparent: boolean
	sizes: ReadonlyArray<{ id: string; label: string }>
}

export const SIZE_REQUIRED = { title: 'Size Required', description: 'Please select a sticker size before adding to cart.' } as const

/** Why a line cannot be ordered as it is, by field; null when it can. */
export function lineProblem(item: CartItem, product: ProductOptions): { field: keyof CartItem; message: string } | null {
	if (product.sizes.length && !product.sizes.some((s) => s.id === item.stickerSize))
		return { field: 'stickerSize', message: SIZE_REQUIRED.description }
	if (!product.sizes.length && item.stickerSize) return { field: 'stickerSize', message: `${product.name} comes in one size` }
	if (item.addSticker && !product.supportsSticker) return { field: 'addSticker', message: `${product.name} has no QR sticker option` }
	if (item.transparentBackground && !product.supportsTransparent)
		return { field: 'transparentBackground', message: `${product.name} has no transparent background option` }
	return null
}

export type LineDescription = {
	color: string | null
	qrShape: string | null
	addSticker: boolean
	transparentBackground: boolean
	customText?: string | null
	stickerSize?: string | null
	qrCodeUrl?: string | null
}

export function colorName(hex: string | null | undefined) {
	if (!hex) return null
	return QR_COLORS.find((c) => c.hex === hex.toUpperCase())?.name ?? hex
}

/** A line's options in words, for the cart, the order pages and the confirmation e-mail. */
export function lineOptions(line: LineDescription) {
	return [
		colorName(line.color),
		line.qrShape === 'square' ? 'square QR' : line.qrShape === 'circular' ? 'circular QR' : null,
		line.stickerSize ? `size ${line.stickerSize}` : null,
		line.addSticker ? 'with QR sticker' : null,
		line.transparentBackground ? 'transparent background' : null,
		line.customText ? `text “${line.customText}”` : null,
		line.qrCodeUrl ? `QR link ${line.qrCodeUrl}` : null,
	].filter((o): o is string => Boolean(o))
}
