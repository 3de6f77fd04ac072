import { checkCartLine, loadUserCart, storeUserCart } from '#app/domain/shop/cart.server.ts'
import { addToCart, parseCart, type CartItem } from '#app/domain/shop/cart.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'

/**
 * The cart lives on the server so it works without JavaScript: in the session for a guest, in the database for a
 * signed-in person (so every device sees it). Browser storage only mirrors it.
 */
export async function getCart(args: RequestArgs) {
	const session = await getSession(args)
	const userId = session.get('userId')
	return userId ? loadUserCart(userId) : parseCart(session.get('cart'))
}

/** Saves the cart; returns the cookie to send when a guest's session had to be created or changed. */
export async function saveCart(args: RequestArgs, items: CartItem[]) {
	const session = await getSession(args)
	const userId = session.get('userId')
	if (userId) {
		await storeUserCart(userId, items)
		return null
	}
	session.set('cart', items)
	return sessionStorage.commitSession(session)
}

/** Adds a line (merged into an identical one) once the domain accepts it (it refuses with a DomainError). */
export async function addItemToCart(args: RequestArgs, item: CartItem, place: 'shop' | 'request') {
	const name = await checkCartLine(item, place)
	return { name, cookie: await saveCart(args, addToCart(await getCart(args), item)) }
}
