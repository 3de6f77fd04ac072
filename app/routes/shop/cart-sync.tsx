import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import { CART_STORAGE_KEY, type CartItem } from '#app/domain/shop/cart.ts'
import { readStoredCart, writeStoredCart } from '#app/routes/shop/cart-storage.ts'

/** Mirrors the server's cart into browser storage; when another tab changes it, this tab asks the server again. */
export function CartSync({ items }: { items: CartItem[] }) {
	const revalidator = useRevalidator()
	const serialized = JSON.stringify(items)
	useEffect(() => {
		writeStoredCart(JSON.parse(serialized) as CartItem[])
	}, [serialized])
	useEffect(() => {
		const onStorage = (event: StorageEvent) => {
			if (event.key !== CART_STORAGE_KEY) return
			readStoredCart()
			if (revalidator.state === 'idle') void revalidator.revalidate()
		}
		window.addEventListener('storage', onStorage)
		return () => window.removeEventListener('storage', onStorage)
	}, [revalidator])
	return null
}
