import { listProducts } from '#app/domain/shop/cart.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/products'

/** The catalogue (spec 000 §7 reads id, name, price and engraved); ?for=request gives the request page's products. */
const api = resource<Route.ActionArgs>({
	GET: async ({ request }) => {
		const where = new URL(request.url).searchParams.get('for') === 'request' ? 'request' : 'shop'
		const products = await listProducts(where)
		return Response.json({
			products: products.map((p) => ({
				id: p.id,
				name: p.name,
				description: p.description,
				category: p.category,
				price: p.priceCents / 100,
				engraved: p.engraved,
				supportsTransparent: p.supportsTransparent,
				supportsSticker: p.supportsSticker,
				sizes: p.sizes,
			})),
		})
	},
})

export const loader = api.loader
export const action = api.action
