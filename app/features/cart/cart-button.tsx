import { Link, useLocation, useRouteLoaderData } from 'react-router'
import { cartCount, type CartItem } from '#app/domain/shop/cart-lines.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { CartDialog } from './cart-dialog-lazy.ts'

/** Opens the cart over the current page (?cart=open), with or without JavaScript. */
export function cartHref(location: { pathname: string; search: string }) {
	const params = new URLSearchParams(location.search)
	params.set('cart', 'open')
	return `${location.pathname}?${params}`
}

export function CartButton({ className }: { className?: string }) {
	const location = useLocation()
	const items = useRouteLoaderData<{ cart?: CartItem[] }>('root')?.cart ?? []
	const count = cartCount(items)
	return (
		<Link
			to={cartHref(location)}
			preventScrollReset
			onPointerEnter={CartDialog.preload}
			onFocus={CartDialog.preload}
			className={buttonClass('secondary', `relative min-h-10 px-3 py-1.5 text-sm ${className ?? ''}`)}
		>
			<svg
				viewBox="0 0 24 24"
				className="size-5"
				aria-hidden="true"
				focusable="false"
				fill="none"
				stroke="currentColor"
				strokeWidth="2"
				strokeLinecap="round"
				strokeLinejoin="round"
			>
				<circle cx="9" cy="20" r="1.5" />
				<circle cx="18" cy="20" r="1.5" />
				<path d="M2 3h3l2.6 12.4a1 1 0 0 0 1 .8h9.8a1 1 0 0 0 1-.8L21 7H6" />
			</svg>
			Cart
			{count > 0 ? (
				<span className="ml-1 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white" data-testid="cart-badge">
					<span className="sr-only">, items: </span>
					{count}
				</span>
			) : null}
		</Link>
	)
}
