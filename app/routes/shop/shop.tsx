import { readPageForm } from '#app/utils/request.server.ts'
import { listProducts } from '#app/domain/shop/cart.server.ts'
import { cartAction } from '#app/features/cart/checkout.server.ts'
import { ShopHeader } from '#app/routes/shop/shop-header.tsx'
import { pageUrl } from '#app/utils/http.ts'
import type { Route } from './+types/shop'
import { ProductCard } from './product-card.tsx'
import { fieldErrorsOf, refusedProduct } from '../../features/cart/cart-errors.ts'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request }: Route.LoaderArgs) {
	const url = pageUrl(request)
	// "Preview" without JavaScript: the product's options come back in the query.
	const previewing = Number(url.searchParams.get('preview'))
	return {
		products: await listProducts('shop'),
		preview: previewing ? { productId: previewing, options: Object.fromEntries(url.searchParams) } : null,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	// Every form of this page adds its product to the cart.
	const formData = await readPageForm(request)
	formData.set('intent', 'add')
	return cartAction({ request, context }, formData, { returnTo: '/shop' })
}

export default function Shop({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<div className="min-h-screen">
			<ShopHeader />
			<main id="main" className="mx-auto max-w-5xl px-4 py-8">
				<h1 className="text-2xl font-bold">Shop</h1>
				<p className="mt-2 max-w-3xl text-gray-800">
					Stickers and cards that carry your medical QR code. Every order is free: choose the look here, then pick which of your QR codes it
					carries at checkout.
				</p>
				<ul className="mt-6 grid gap-6 md:grid-cols-2">
					{loaderData.products.map((product) => (
						<ProductCard
							key={product.id}
							product={product}
							preview={loaderData.preview?.productId === product.id ? loaderData.preview.options : null}
							errors={refusedProduct(actionData?.result) === String(product.id) ? fieldErrorsOf(actionData?.result) : undefined}
						/>
					))}
				</ul>
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Shop')
