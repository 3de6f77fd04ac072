import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import type { CartItem } from '#app/domain/shop/cart-lines.ts'
import { CART_STORAGE_KEY, dropUnreadableStoredCart, writeStoredCart } from './cart-storage.ts'

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
			dropUnreadableStoredCart()
			if (revalidator.state === 'idle') void revalidator.revalidate()
		}
		window.addEventListener('storage', onStorage)
		return () => window.removeEventListener('storage', onStorage)
	}, [revalidator])
	return null
}
