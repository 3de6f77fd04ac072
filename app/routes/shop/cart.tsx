import { readPageForm } from '#app/utils/request.server.ts'
import { cartAction, loadCartView } from '#app/features/cart/checkout.server.ts'
import { ShopHeader } from '#app/routes/shop/shop-header.tsx'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/cart'
import { cardClass } from '#app/ui/card.tsx'
import { pageMeta } from '#app/utils/meta.ts'

// The same code as the cart dialog's, loaded after the page: until then its buttons and fields post as plain forms.
const CartContents = lazyComponent('cart-page', () => import('../../features/cart/cart-view.tsx').then((module) => module.CartPageContents))

/** The cart and checkout on a page of their own: where a form from the dialog lands without JavaScript when it fails. */
export async function loader({ request, context }: Route.LoaderArgs) {
	return loadCartView({ request, context })
}

export async function action({ request, context }: Route.ActionArgs) {
	// Back where the cart was opened (a page with ?cart=open, or this one).
	return cartAction({ request, context }, await readPageForm(request), { returnTo: '/cart', fromForm: true })
}

export default function Cart({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<div className="min-h-screen">
			<ShopHeader />
			<main id="main" className="mx-auto max-w-5xl px-4 py-8">
				<h1 className="mb-5 text-2xl font-bold">Shopping Cart &amp; Checkout</h1>
				<div className={cardClass('p-5')}>
					<CartContents view={loaderData} errors={actionData} />
				</div>
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Shopping Cart & Checkout')
