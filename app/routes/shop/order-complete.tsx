import { useEffect } from 'react'
import { data, Link } from 'react-router'
import { presentOrder } from '#app/domain/shop/order-view.server.ts'
import { getLatestOwnOrder, getOwnOrder, getOwnOrderBySession } from '#app/domain/shop/orders.server.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { ShopHeader } from '#app/routes/shop/shop-header.tsx'
import { getUserId } from '#app/middleware/user.server.ts'
import { clearStoredCart } from '#app/features/cart/cart-storage.ts'
import { env } from '#app/utils/env.server.ts'
import type { Route } from './+types/order-complete'
import { OrderFacts, OrderItems } from './order-details.tsx'
import { cardClass } from '#app/ui/card.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { LinkList } from '#app/ui/link-list.tsx'

/**
 * Spec 002: reads order (the confirmation number), session_id (after a payment) and free72; without either, the
 * person's latest order. Also served at /shop-success, spec 000's return address of a shop checkout. Reached without
 * an order to show (no number nor payment named, and none on the account, or no one signed in), everyone gets the same
 * 200 page: where to find the order, with a sign-in link for visitors.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const number = params.get('order')?.trim() ?? ''
	const sessionId = params.get('session_id')?.trim() ?? ''
	const userId = await getUserId({ request, context })
	const named = Boolean(number || sessionId)
	if (!userId) return named ? { state: 'signed-out' as const, number } : { state: 'none' as const, number, signedIn: false }
	const found = number
		? await getOwnOrder(userId, number)
		: sessionId
			? await getOwnOrderBySession(userId, sessionId)
			: await getLatestOwnOrder(userId)
	if (!found && !named) return { state: 'none' as const, number, signedIn: true }
	if (!found) return data({ state: 'not-found' as const, number }, { status: 404 })
	const order = await presentOrder(found)
	// free72=true is only a hint: the banner shows when the order really carries the free-order code.
	return { state: 'found' as const, number: order.confirmationNumber, order, free72: order.free72, supportEmail: env.SUPPORT_EMAIL }
}

export default function OrderComplete({ loaderData }: Route.ComponentProps) {
	useEffect(() => {
		if (loaderData.state === 'found') clearStoredCart()
	}, [loaderData.state])
	const trackHref = `/order-tracking${loaderData.number ? `?${new URLSearchParams({ number: loaderData.number })}` : ''}`
	return (
		<div className="min-h-screen pb-24">
			<ShopHeader />
			<main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8">
				{loaderData.state === 'found' ? (
					<>
						<div>
							<h1 className="text-3xl font-bold text-gray-900">Order Complete!</h1>
							<p className="mt-2 text-lg text-gray-800">
								Thank you. Your order is confirmed and a confirmation e-mail with its number is on its way to {loaderData.order.email}.
								{loaderData.order.estimatedDelivery
									? `We prepare orders within 1-2 business days; with ${loaderData.order.shipping} shipping, expect it by ${loaderData.order.estimatedDelivery}. Tracking is sent by e-mail when it ships.`
									: 'Tracking is sent by e-mail when it ships.'}
							</p>
						</div>
						{loaderData.free72 ? (
							<p className="rounded-lg border border-green-700 bg-green-50 p-3 font-semibold text-green-900">
								Free order code {loaderData.order.discountCode} applied: products and shipping are on us.
							</p>
						) : null}
						<section aria-labelledby="order-title" className={cardClass('space-y-5 p-6')}>
							<h2 id="order-title" className="sr-only">
								Your order
							</h2>
							<OrderFacts order={loaderData.order} />
							<OrderItems order={loaderData.order} />
							<div>
								<h2 className="text-xl font-bold">Shipping to</h2>
								<address className="not-italic">
									{loaderData.order.address.map((line) => (
										<span key={line} className="block">
											{line}
										</span>
									))}
								</address>
							</div>
						</section>
						<p className="text-gray-800">
							Questions about your order? Write to{' '}
							<a href={`mailto:${loaderData.supportEmail}`} className="font-semibold text-blue-800 underline">
								{loaderData.supportEmail}
							</a>
							.
						</p>
					</>
				) : loaderData.state === 'not-found' ? (
					<div>
						<h1 className="text-3xl font-bold text-gray-900">Order not found</h1>
						<p className="mt-2 text-lg text-gray-800">
							There is no order with that number on your account. You can look any order up with its confirmation number and e-mail address.
						</p>
					</div>
				) : loaderData.state === 'none' ? (
					<div>
						<h1 className="text-3xl font-bold text-gray-900">No order to show</h1>
						<p className="mt-2 text-lg text-gray-800">
							{loaderData.signedIn ? 'There is no order on your account yet. ' : 'Sign in to see your latest order. '}
							An order's confirmation e-mail has its number: track any order with it and the e-mail address it was placed with.
						</p>
						{loaderData.signedIn ? null : (
							<Link to="/auth" className={buttonClass('primary', 'mt-4')}>
								Sign In
							</Link>
						)}
					</div>
				) : (
					<div>
						<h1 className="text-3xl font-bold text-gray-900">Your order</h1>
						<p className="mt-2 text-lg text-gray-800">
							Sign in to see your order, or track it with its confirmation number and the e-mail address it was placed with.
						</p>
						<Link to="/auth" className={buttonClass('primary', 'mt-4')}>
							Sign In
						</Link>
					</div>
				)}
				<nav aria-label="Next steps" className="flex flex-wrap gap-3">
					<LinkList
						links={[
							{ to: trackHref, label: 'Track Your Order', className: buttonClass('primary') },
							{ to: '/shop', label: 'Continue Shopping', className: buttonClass('secondary') },
							{ to: '/dashboard', label: 'Go to Dashboard', className: buttonClass('secondary') },
							{ to: '/', label: 'Home', className: buttonClass('ghost') },
						]}
					/>
				</nav>
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Order Complete')
