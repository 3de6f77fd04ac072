import { Link, useRouteLoaderData } from 'react-router'
import { Logo } from '#app/ui/brand.tsx'
import { CartButton } from '../../features/cart/cart-button.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { LinkList } from '#app/ui/link-list.tsx'

const navLink = buttonClass('ghost', 'min-h-10 px-3 py-1.5 text-sm')

/** The header of the shop and order pages, for guests and signed-in people alike. */
export function ShopHeader() {
	const signedIn = Boolean(useRouteLoaderData<{ user?: unknown }>('root')?.user)
	return (
		<header className="border-b border-gray-300 bg-white">
			<div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
				<Link to="/" className="flex items-center gap-3 rounded text-lg font-semibold">
					<Logo className="size-9" />
					Hit Me Helpers
				</Link>
				<nav aria-label="Shop" className="flex flex-wrap items-center gap-1">
					<LinkList
						links={[
							{ to: '/shop', label: 'Shop', className: navLink },
							{ to: '/order-tracking', label: 'Track Order', className: navLink },
							{ to: signedIn ? '/dashboard' : '/auth', label: signedIn ? 'Dashboard' : 'Sign In', className: navLink },
						]}
					/>
					<CartButton />
				</nav>
			</div>
		</header>
	)
}
