import { and, asc, eq, inArray, or } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { carts, products } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { addToCart, lineProblem, parseCart, type CartItem } from './cart.ts'

/** A signed-in person's cart, kept in the database so every device sees it. */
export async function loadUserCart(userId: string) {
	const row = await db.query.carts.findFirst({ columns: { items: true }, where: eq(carts.userId, userId) })
	return parseCart(row?.items)
}

export async function storeUserCart(userId: string, items: CartItem[]) {
	await db.insert(carts).values({ userId, items }).onConflictDoUpdate({ target: carts.userId, set: { items } })
}

/** At sign-in, what the guest put in the cart joins what the account already had. */
export async function mergeGuestCart(userId: string, guestCart: unknown) {
	const guest = parseCart(guestCart)
	if (!guest.length) return
	await db.transaction(async (tx) => {
		const row = await tx.query.carts.findFirst({ columns: { items: true }, where: eq(carts.userId, userId) })
		const merged = guest.reduce(addToCart, parseCart(row?.items))
		await tx
			.insert(carts)
			.values({ userId, items: merged })
			.onConflictDoUpdate({ target: carts.userId, set: { items: merged } })
	})
}

export type ShopProduct = Awaited<ReturnType<typeof listProducts>>[number]

/** The shop's catalogue, or the request page's. */
export function listProducts(where: 'shop' | 'request' | 'any' = 'shop') {
	const place =
		where === 'shop'
			? eq(products.inShop, true)
			: where === 'request'
				? eq(products.onRequestPage, true)
				: or(eq(products.inShop, true), eq(products.onRequestPage, true))
	return db
		.select()
		.from(products)
		.where(and(eq(products.active, true), place))
		.orderBy(asc(products.sortOrder), asc(products.id))
}

export function productsById(ids: number[]) {
	if (!ids.length) return Promise.resolve([])
	return db
		.select()
		.from(products)
		.where(and(eq(products.active, true), inArray(products.id, ids)))
}

/**
 * A line may join the cart once its product is offered there and it has the options the product asks for; the
 * product's name when it may, a 400 beside the field at fault when it may not.
 */
export async function checkCartLine(item: CartItem, place: 'shop' | 'request') {
	const [product] = await productsById([item.productId])
	if (!product || !(place === 'shop' ? product.inShop : product.onRequestPage))
		throw new DomainError(400, 'This product is not available.', 'productId')
	const problem = lineProblem(item, product)
	if (problem) throw new DomainError(400, problem.message, problem.field)
	return product.name
}
