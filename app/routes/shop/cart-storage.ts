import { CART_EVENT, CART_STORAGE_KEY, parseCart, type CartItem } from '#app/domain/shop/cart.ts'

/**
 * The browser's copy of the cart (spec 000 §3): saved under one key and announced with the 'cart-updated' event, so
 * other parts of the page and other tabs follow. The server's cart stays the one that counts.
 */
export function writeStoredCart(items: CartItem[]) {
	try {
		const next = JSON.stringify(items)
		if (localStorage.getItem(CART_STORAGE_KEY) !== next) localStorage.setItem(CART_STORAGE_KEY, next)
	} catch {
		// Storage may be full or disabled: the server's cart still works.
	}
	window.dispatchEvent(new CustomEvent(CART_EVENT, { detail: items }))
}

/** An unparsable stored cart is removed and read as empty. */
export function readStoredCart(): CartItem[] {
	try {
		const raw = localStorage.getItem(CART_STORAGE_KEY)
		if (raw == null) return []
		const items = parseCart(raw)
		if (!items.length && raw !== '[]') localStorage.removeItem(CART_STORAGE_KEY)
		return items
	} catch {
		return []
	}
}

export function clearStoredCart() {
	writeStoredCart([])
}
