import { readPageForm } from '#app/utils/request.server.ts'
import { data, redirect } from 'react-router'
import { cartAction, loadCartView } from '#app/routes/shop/checkout.server.ts'
import { ShopHeader } from '#app/routes/shop/shop-header.tsx'
import { combineHeaders, safeRedirect } from '#app/utils/http.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/cart'
import { cardClass } from '#app/ui/card.tsx'

// The same code as the cart dialog's, loaded after the page: until then its buttons and fields post as plain forms.
const CartContents = lazyComponent('cart-page', () => import('./cart-view.tsx').then((module) => module.CartPageContents))

/** The cart and checkout on a page of their own: where a form from the dialog lands without JavaScript when it fails. */
export async function loader({ request }: Route.LoaderArgs) {
	return loadCartView(request)
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await readPageForm(request)
	const result = await cartAction(request, formData, safeRedirect(formData.get('returnTo'), '/cart'))
	const cookie = result.cookie ? { 'set-cookie': result.cookie } : undefined
	if (result.ok)
		return result.toast
			? redirectWithToast(result.redirectTo, result.toast, { headers: cookie })
			: redirect(result.redirectTo, { headers: cookie })
	const toast = await actionToast(request, context, { type: 'error', ...result.toast })
	return data(
		{ fieldErrors: result.fieldErrors, message: result.toast.description },
		{ status: result.status, headers: combineHeaders(cookie, toast) },
	)
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

export const meta: Route.MetaFunction = () => [{ title: 'Shopping Cart & Checkout · Hit Me Helpers' }]
