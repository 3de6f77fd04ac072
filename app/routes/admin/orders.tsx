import { Link } from 'react-router'
import { shippingAddressLines } from '#app/domain/admin/address.ts'
import { chosenCodeStatus, type ChosenCode } from '#app/domain/admin/chosen-code.ts'
import { listOrders } from '#app/domain/admin/orders.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import type { Route } from './+types/orders'
import { codePreviewSrc } from './chosen-code-card.tsx'
import { AddressLines, money, StatusBadge } from './order-ui.tsx'

export async function loader({ request }: Route.LoaderArgs) {
	const page = Number.parseInt(new URL(request.url).searchParams.get('page') ?? '1', 10)
	return listOrders({ page: Number.isSafeInteger(page) ? page : 1 })
}

function Address({ value }: { value: unknown }) {
	const shown = shippingAddressLines(value)
	if ('fallback' in shown) return <span className="text-gray-700 italic">{shown.fallback}</span>
	return <AddressLines lines={shown.lines} />
}

/** The shopper's chosen code in a row: preview, label, scan link, and a warning when it cannot go with the order. */
function ChosenCodeSummary({ code }: { code: ChosenCode | null }) {
	const warn = !code || Boolean(code.problem) || !code.ownedByShopper
	return (
		<div className="flex max-w-64 items-start gap-2 text-sm sm:justify-end sm:text-right">
			{code?.scanUrl ? (
				<img src={codePreviewSrc(code.id)} alt={`${code.label}, chosen for this order`} width={64} height={64} loading="lazy" />
			) : null}
			<div>
				<p className="font-semibold text-gray-900">{code ? `Chosen: ${code.label}` : 'Chosen code'}</p>
				{code?.scanUrl ? <p className="font-mono text-xs break-all text-gray-700">{code.scanUrl}</p> : null}
				{warn ? <p className="font-semibold text-red-700">{chosenCodeStatus(code)}</p> : null}
			</div>
		</div>
	)
}

function Pager({ page, pageCount }: { page: number; pageCount: number }) {
	if (pageCount <= 1) return null
	const to = (n: number) => `?page=${n}`
	return (
		<nav aria-label="Order pages" className="flex flex-wrap items-center gap-2">
			{page > 1 ? (
				<Link to={to(page - 1)} className={buttonClass('secondary', 'min-h-10 px-3 py-1.5 text-sm')}>
					Previous
				</Link>
			) : null}
			{Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
				<Link
					key={n}
					to={to(n)}
					aria-current={n === page ? 'page' : undefined}
					aria-label={`Page ${n}`}
					className={buttonClass(n === page ? 'primary' : 'secondary', 'min-h-10 min-w-10 px-2 py-1.5 text-sm')}
				>
					{n}
				</Link>
			))}
			{page < pageCount ? (
				<Link to={to(page + 1)} className={buttonClass('secondary', 'min-h-10 px-3 py-1.5 text-sm')}>
					Next
				</Link>
			) : null}
		</nav>
	)
}

export default function OrdersTab({ loaderData }: Route.ComponentProps) {
	const { orders, page, pageCount, total } = loaderData
	return (
		<section aria-labelledby="orders-title" className="space-y-4">
			<div className="flex flex-wrap items-baseline justify-between gap-2">
				<h2 id="orders-title" className="text-2xl font-bold text-gray-900">
					Orders
				</h2>
				<p className="text-gray-700">
					{total} {total === 1 ? 'order' : 'orders'}, newest first
				</p>
			</div>
			{orders.length === 0 ? <p className={cardClass('p-6 text-gray-800')}>No orders yet.</p> : null}
			<ul className="space-y-3">
				{orders.map((order) => (
					<li key={order.orderId} className={cardClass('grid gap-3 p-4 sm:grid-cols-[1fr_1fr_auto]')}>
						<div className="space-y-1">
							<Link to={`/admin/orders/${order.orderId}`} className="text-lg font-bold text-blue-800 underline">
								Order {order.orderNumber}
							</Link>
							<p className="text-gray-900">
								{order.paymentStatus === 'free' ? 'Free' : `${money(order.received, order.currency)} received`} · list{' '}
								{money(order.totalAmount, order.currency)} · {formatEtTime(order.createdAt)}
							</p>
							<p className="text-gray-900">
								{order.customerName ?? 'Guest'} · <span className="break-all">{order.customerEmail}</span>
							</p>
							<p className="text-sm text-gray-700">{order.items.map((item) => `${item.quantity} × ${item.name}`).join(', ')}</p>
						</div>
						<div className="text-sm text-gray-900">
							<Address value={order.shippingAddress} />
						</div>
						<div className="flex flex-col items-start gap-2 sm:items-end">
							<StatusBadge status={order.fulfillmentStatus} />
							<ChosenCodeSummary code={order.selectedQrCode} />
							<a
								href={`/admin/order/${order.orderId}`}
								target="_blank"
								rel="noopener"
								className={buttonClass('secondary', 'min-h-10 px-3 py-1.5 text-sm')}
							>
								View Order Details
							</a>
						</div>
					</li>
				))}
			</ul>
			<Pager page={page} pageCount={pageCount} />
		</section>
	)
}
