import { PrefetchPageLinks, useFetcher, useLocation } from 'react-router'
import type { CartView } from '#app/features/cart/checkout.server.ts'
import { Modal } from '#app/ui/modal.tsx'
import { CartContents, usePendingIntent, type CartErrors } from './cart-view.tsx'

/** The cart over the current page (?cart=open). Its forms post to /cart and come back here. */
export function CartDialog({ view }: { view: CartView }) {
	const location = useLocation()
	const fetcher = useFetcher<CartErrors>({ key: 'cart' })
	const params = new URLSearchParams(location.search)
	params.delete('cart')
	const closeHref = `${location.pathname}${params.size ? `?${params}` : ''}`
	return (
		<Modal title="Shopping Cart & Checkout" closeHref={closeHref} start="title" wide>
			<CartContents view={view} errors={fetcher.data} FormComponent={fetcher.Form} pending={usePendingIntent(fetcher.formData)} />
			{/* The forms post to /cart, whose module React Router fetches first (reloading the page if that fails): load it now. */}
			<PrefetchPageLinks page="/cart" />
		</Modal>
	)
}
