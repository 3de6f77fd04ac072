import { Form, Link, useSearchParams } from 'react-router'
import { canChangeCodes, canMarkShipped, documentProblem } from '#app/domain/admin/order-status.ts'
import { cardClass } from '#app/ui/card.tsx'
import { StatusButton, buttonClass } from '#app/ui/forms.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { useIntentPending } from '#app/utils/use-is-pending.ts'
import type { Route } from './+types/order-detail'
import { ASSIGN_OPENER, AssignDialog } from './assign-dialog.tsx'
import { ChosenCodeCard } from './chosen-code-card.tsx'
import { orderDetailAction, orderDetailLoader } from './order-detail.server.ts'
import { AddressLines, money, StatusBadge } from './order-ui.tsx'
import { PostButton } from './post-button.tsx'
import { Section } from './section.tsx'

export const loader = ({ params }: Route.LoaderArgs) => orderDetailLoader(params.orderId)
export const action = (args: Route.ActionArgs) => orderDetailAction(args, args.params.orderId)

const small = 'min-h-10 px-3 py-1.5 text-sm'

export default function OrderDetail({ loaderData, actionData }: Route.ComponentProps) {
	const { order, customer, qrCodes, address } = loaderData
	const here = `/admin/orders/${order.orderId}`
	const assignRefused = actionData?.intent === 'assign' ? actionData.result : null
	// A refusal of the other forms (or of a form the page does not know) is said above them all.
	const refused = actionData && !assignRefused ? Object.values(actionData.result.error ?? {}).flat()[0] : null
	const [search] = useSearchParams()
	const dialogOpen = Boolean(assignRefused) || search.get('dialog') === 'assign'
	const docProblem = documentProblem({ status: order.fulfillmentStatus, assignedCount: qrCodes.length })
	const shipping = useIntentPending('ship')
	const chosen = order.selectedQrCode
	return (
		<div className="space-y-4">
			<p>
				<Link to="/admin/orders" className="font-semibold text-blue-800 underline">
					← All orders
				</Link>
			</p>
			<div className="flex flex-wrap items-center gap-3">
				<h2 className="text-2xl font-bold text-gray-900">Order {order.orderNumber}</h2>
				<StatusBadge status={order.fulfillmentStatus} />
			</div>
			{refused ? (
				<p role="alert" className="font-semibold text-red-700">
					{refused}
				</p>
			) : null}
			<div className="grid gap-4 md:grid-cols-2">
				<Section id="order-info" title="Order" className={cardClass('space-y-1 p-4')} titleClassName="text-lg font-bold">
					<p>Placed {formatEtTime(order.createdAt)}</p>
					<p>
						Total at list prices {money(order.totalAmount, order.currency)} (subtotal {money(order.subtotal, order.currency)}, shipping{' '}
						{money(order.shippingCost, order.currency)})
					</p>
					<p>
						Received {money(order.received, order.currency)}
						{order.refunded ? ` (charged ${money(order.charged, order.currency)}, refunded ${money(order.refunded, order.currency)})` : ''};
						payment {order.paymentStatus}
					</p>
					{order.fulfilledAt ? <p>Shipping document made {formatEtTime(order.fulfilledAt)}</p> : null}
					{order.shippedAt ? <p>Shipped {formatEtTime(order.shippedAt)}</p> : null}
				</Section>
				<Section id="customer-info" title="Customer" className={cardClass('space-y-1 p-4')} titleClassName="text-lg font-bold">
					<p>
						{order.customerName ?? customer?.name ?? 'Guest'} · <span className="break-all">{order.customerEmail}</span>
					</p>
					<p className="text-sm text-gray-700">{customer ? 'Has an account' : 'Guest order, or the account was deleted'}</p>
					<div className="pt-2">
						{'fallback' in address ? <p className="italic">{address.fallback}</p> : <AddressLines lines={address.lines} />}
					</div>
				</Section>
			</div>
			<Section id="items-title" title="Items" className={cardClass('p-4')} titleClassName="text-lg font-bold">
				<ul className="mt-2 space-y-1">
					{order.items.map((item, i) => (
						<li key={i}>
							{item.quantity} × {item.name} ({money(item.price, order.currency)})
							{item.customText ? <span className="text-gray-700"> · text “{item.customText}”</span> : null}
						</li>
					))}
				</ul>
			</Section>
			<ChosenCodeCard code={chosen} codesChangeable={canChangeCodes(order.fulfillmentStatus)} />
			<Section id="fulfilment-title" title="Fulfilment" className={cardClass('space-y-3 p-4')} titleClassName="text-lg font-bold">
				{qrCodes.length ? (
					<ul className="space-y-1">
						{qrCodes.map((code) => (
							<li key={code.id} className="flex flex-wrap items-center gap-3">
								<span>
									Code {code.id}
									{code.id === chosen?.id ? (
										' · the shopper’s chosen code'
									) : code.claimed ? (
										' · claimed'
									) : (
										<>
											{' '}
											· PIN <span className="font-mono">{code.pin}</span>
										</>
									)}
								</span>
								{canChangeCodes(order.fulfillmentStatus) ? (
									<PostButton
										fields={{ intent: 'unassign', codeId: String(code.id) }}
										buttonClassName={buttonClass('ghost', small)}
										buttonLabel={`Remove code ${code.id}`}
									>
										Remove
									</PostButton>
								) : null}
							</li>
						))}
					</ul>
				) : (
					<p className="text-gray-800">No QR codes assigned yet.</p>
				)}
				<div className="flex flex-wrap gap-2">
					{canChangeCodes(order.fulfillmentStatus) ? (
						<Link id={ASSIGN_OPENER} to="?dialog=assign" className={buttonClass('blue', small)}>
							Assign QR Codes
						</Link>
					) : null}
					<Form method="post" action={`/admin/order/${order.orderId}`} target="_blank">
						<button type="submit" disabled={Boolean(docProblem)} className={buttonClass('secondary', small)}>
							Generate Shipping Document <span className="font-normal">(opens in a new tab)</span>
						</button>
					</Form>
					<Form method="post">
						<input type="hidden" name="intent" value="ship" />
						<StatusButton
							type="submit"
							pending={shipping}
							pendingLabel="Saving…"
							disabled={!canMarkShipped(order.fulfillmentStatus)}
							variant="green"
							className={small}
						>
							Mark as Shipped
						</StatusButton>
					</Form>
				</div>
				{docProblem && order.fulfillmentStatus !== 'shipped' ? <p className="text-sm text-gray-700">{docProblem}</p> : null}
			</Section>
			{dialogOpen ? <AssignDialog closeHref={here} refused={assignRefused} chosen={chosen} /> : null}
		</div>
	)
}

export const meta: Route.MetaFunction = ({ data }) =>
	pageMeta(`Order ${data?.order.orderNumber ?? ''} · Owner dashboard`, { noindex: true })
