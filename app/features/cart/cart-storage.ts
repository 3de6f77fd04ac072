import type { CartItem } from '#app/domain/shop/cart-lines.ts'

/** Browser storage and the event other parts of the page and other tabs listen to (spec 000 §3). */
export const CART_STORAGE_KEY = 'hmh-cart'
export const CART_EVENT = 'cart-updated'

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

/** A stored cart that is not a list (another tab, an old version, a hand edit) is removed rather than left to fail later. */
export function dropUnreadableStoredCart() {
	try {
		const raw = localStorage.getItem(CART_STORAGE_KEY)
		if (raw != null && !Array.isArray(JSON.parse(raw))) localStorage.removeItem(CART_STORAGE_KEY)
	} catch {
		localStorage.removeItem(CART_STORAGE_KEY)
	}
}

export function clearStoredCart() {
	writeStoredCart([])
}
