import { ShopHeader } from '#app/routes/shop/shop-header.tsx'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/order-tracking'
import { OrderFacts, OrderItems, TrackingSteps } from './order-details.tsx'
import { trackingAction, trackingLoader } from './order-tracking.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { pageMeta } from '#app/utils/meta.ts'

const TrackOrderForm = lazyComponent('track-order-form', () => import('./order-tracking-form.tsx').then((module) => module.TrackOrderForm))

export async function loader({ request, context }: Route.LoaderArgs) {
	return trackingLoader({ request, context })
}

export async function action({ request, context }: Route.ActionArgs) {
	return trackingAction(request, context)
}

/** Spec 002 §9: the FAQ's promises. */
const FAQ = [
	{ q: 'When will my order be processed?', a: 'Orders are processed within 1-2 business days.' },
	{ q: 'When will my order ship?', a: 'Orders ship within 3-5 business days, and the tracking number is sent by e-mail.' },
	{ q: 'Can I change my order?', a: 'Changes are possible within 24 hours of ordering: contact support with your confirmation number.' },
]

export default function OrderTracking({ loaderData, actionData }: Route.ComponentProps) {
	const { order, supportEmail } = loaderData
	return (
		<div className="min-h-screen pb-24">
			<ShopHeader />
			<main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8">
				<h1 className="text-3xl font-bold text-gray-900">Track Your Order</h1>
				<TrackOrderForm lastResult={actionData?.result} defaultValue={{ confirmationNumber: loaderData.number, email: loaderData.email }} />
				{order ? (
					<section aria-labelledby="result-title" className={cardClass('space-y-5 p-6')}>
						<h2 id="result-title" className="text-2xl font-bold">
							Order {order.confirmationNumber}
						</h2>
						<OrderFacts order={order} />
						<TrackingSteps order={order} />
						<OrderItems order={order} />
					</section>
				) : null}
				<section aria-labelledby="help-title" className={cardClass('space-y-3 p-6')}>
					<h2 id="help-title" className="text-xl font-bold">
						Need help?
					</h2>
					<p className="text-gray-800">
						Write to{' '}
						<a href={`mailto:${supportEmail}`} className="font-semibold text-blue-800 underline">
							{supportEmail}
						</a>{' '}
						with your confirmation number.
					</p>
					<h3 className="text-lg font-bold">Frequently asked questions</h3>
					<dl className="space-y-2">
						{FAQ.map((item) => (
							<div key={item.q}>
								<dt className="font-semibold">{item.q}</dt>
								<dd className="text-gray-800">{item.a}</dd>
							</div>
						))}
					</dl>
				</section>
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = () =>
	pageMeta('Track Your Order', { description: 'Track a Hit Me Helpers order with its confirmation number and e-mail address.' })
