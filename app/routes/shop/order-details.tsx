import type { PresentedOrder } from '#app/domain/shop/order-view.server.ts'
import { cx } from '#app/ui/cx.ts'

const term = 'text-sm font-semibold text-gray-700'

/** What an order is: shared by the order-complete and order-tracking pages. */
export function OrderFacts({ order }: { order: PresentedOrder }) {
	return (
		<dl className="grid gap-4 sm:grid-cols-2">
			<div>
				<dt className={term}>Confirmation number</dt>
				<dd className="font-mono text-xl font-bold">{order.confirmationNumber}</dd>
			</div>
			<div>
				<dt className={term}>Status</dt>
				<dd className="text-lg font-semibold">{order.status}</dd>
			</div>
			<div>
				<dt className={term}>Order date</dt>
				<dd>{order.placedOn}</dd>
			</div>
			<div>
				<dt className={term}>Estimated delivery</dt>
				<dd>{order.estimatedDelivery ?? 'Not applicable'}</dd>
			</div>
			<div>
				<dt className={term}>Total</dt>
				<dd>
					<span className="font-bold text-green-800">FREE</span>{' '}
					<span className="text-sm text-gray-700">
						(order value {order.value.total}
						{order.discountCode ? ` after ${order.discountCode}` : ''})
					</span>
				</dd>
			</div>
			<div>
				<dt className={term}>Shipping</dt>
				<dd>{order.shipping}</dd>
			</div>
			{order.carries ? (
				<div className="sm:col-span-2">
					<dt className={term}>QR code</dt>
					<dd>{order.carries}</dd>
				</div>
			) : null}
		</dl>
	)
}

export function OrderItems({ order }: { order: PresentedOrder }) {
	return (
		<section aria-labelledby="order-items-title">
			<h2 id="order-items-title" className="mb-2 text-xl font-bold">
				Items
			</h2>
			<ul className="divide-y divide-gray-200 rounded-lg border border-gray-300">
				{order.items.map((item) => (
					<li key={item.id} className="flex flex-wrap justify-between gap-2 p-3">
						<div>
							<p className="font-semibold">
								{item.name} × {item.quantity}
							</p>
							{item.options.length ? <p className="text-sm text-gray-700">{item.options.join(' · ')}</p> : null}
						</div>
						<p className="text-right">
							<span className="font-semibold text-green-800">FREE</span>{' '}
							<span className="text-sm text-gray-700">(value {item.unitValue} each)</span>
						</p>
					</li>
				))}
			</ul>
		</section>
	)
}

/** Spec 002: Order Placed, Payment Confirmed, Processing, Shipped, Delivered, as far as the order has come. */
export function TrackingSteps({ order }: { order: PresentedOrder }) {
	return (
		<section aria-labelledby="progress-title">
			<h2 id="progress-title" className="mb-2 text-xl font-bold">
				Progress
			</h2>
			<ol className="space-y-2">
				{order.steps.map((s, i) => (
					<li key={s.step} className="flex items-center gap-3">
						<span
							aria-hidden="true"
							className={cx(
								'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
								s.completed ? 'bg-green-700 text-white' : 'border-2 border-gray-400 text-gray-700',
							)}
						>
							{s.completed ? '✓' : i + 1}
						</span>
						<span className={s.completed ? 'font-semibold text-gray-900' : 'text-gray-700'}>
							{s.step}
							<span className="sr-only">{s.completed ? ': done' : ': not yet'}</span>
						</span>
						{s.date ? <span className="text-sm text-gray-700">{s.date}</span> : null}
					</li>
				))}
			</ol>
		</section>
	)
}
