import { and, asc, eq, inArray, or } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { carts, products } from '#db/schema.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { addToCart, lineProblem, parseCart, type CartItem } from './cart.ts'

/**
 * The cart lives on the server so it works without JavaScript: in the session for a guest, in the database for a
 * signed-in person (so every device sees it). Browser storage only mirrors it.
 */
export async function getCart(request: Request) {
	const session = await getSession(request)
	const userId = session.get('userId')
	if (!userId) return parseCart(session.get('cart'))
	const row = await db.query.carts.findFirst({ columns: { items: true }, where: eq(carts.userId, userId) })
	return parseCart(row?.items)
}

/** Saves the cart; returns the cookie to send when a guest's session had to be created or changed. */
export async function saveCart(request: Request, items: CartItem[]) {
	const session = await getSession(request)
	const userId = session.get('userId')
	if (userId) {
		await db.insert(carts).values({ userId, items }).onConflictDoUpdate({ target: carts.userId, set: { items } })
		return null
	}
	session.set('cart', items)
	return sessionStorage.commitSession(session)
}

/** At sign-in, what the guest put in the cart joins what the account already had. */
export async function mergeGuestCart(userId: string, guestCart: unknown) {
	const guest = parseCart(guestCart)
	if (!guest.length) return
	await db.transaction(async (tx) => {
		const row = await tx.query.carts.findFirst({ columns: { items: true }, where: eq(carts.userId, userId) })
		const merged = guest.reduce(addToCart, parseCart(row?.items))
		await tx.insert(carts).values({ userId, items: merged }).onConflictDoUpdate({ target: carts.userId, set: { items: merged } })
	})
}

export async function clearCart(request: Request) {
	return saveCart(request, [])
}

export type ShopProduct = Awaited<ReturnType<typeof listProducts>>[number]

/** The shop's catalogue, or the request page's. */
export function listProducts(where: 'shop' | 'request' | 'any' = 'shop') {
	const place = where === 'shop' ? eq(products.inShop, true) : where === 'request' ? eq(products.onRequestPage, true) : or(eq(products.inShop, true), eq(products.onRequestPage, true))
	return db.select().from(products).where(and(eq(products.active, true), place)).orderBy(asc(products.sortOrder), asc(products.id))
}

export function productsById(ids: number[]) {
	if (!ids.length) return Promise.resolve([])
	return db.select().from(products).where(and(eq(products.active, true), inArray(products.id, ids)))
}

export type AddResult = { ok: true; name: string; cookie: string | null } | { ok: false; field: string; message: string }

/** Adds a line (merged into an identical one), once the product is offered there and has the options asked for. */
export async function addItemToCart(request: Request, item: CartItem, place: 'shop' | 'request'): Promise<AddResult> {
	const [product] = await productsById([item.productId])
	if (!product || !(place === 'shop' ? product.inShop : product.onRequestPage)) return { ok: false, field: 'productId', message: 'This product is not available.' }
	const problem = lineProblem(item, product)
	if (problem) return { ok: false, field: problem.field, message: problem.message }
	return { ok: true, name: product.name, cookie: await saveCart(request, addToCart(await getCart(request), item)) }
}
