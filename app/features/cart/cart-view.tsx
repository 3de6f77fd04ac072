import { Form, Link, useLocation, useNavigation } from 'react-router'
import type { CartView } from '#app/features/cart/checkout.server.ts'
import { lineOptions } from '#app/domain/shop/cart-lines.ts'
import { formatCents } from '#app/domain/shop/pricing.ts'
import { CHECKOUT_MESSAGES } from '#app/domain/shop/messages.ts'
import { buttonClass, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { DiscountBox, ShippingFields } from './checkout-fields.tsx'
import { QrCodeSelector } from './qr-code-selector.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { CART_INTENT_NAME } from './cart-intent.ts'
import { fieldErrorsOf, formMessage, type CartRefusal } from './cart-errors.ts'

export type CartErrors = CartRefusal
export const CHECKOUT_FORM = 'checkout-form'

/** "Shopping Cart & Checkout": the same view in the dialog over any page and on its own page at /cart. */
export function CartContents({
	view,
	errors,
	FormComponent,
	pending,
}: {
	view: CartView
	errors: CartErrors
	FormComponent: typeof Form
	pending: string | null
}) {
	const location = useLocation()
	const fieldErrors = fieldErrorsOf(errors?.result)
	const message = formMessage(fieldErrors)
	const returnTo = `${location.pathname}${location.search}`
	if (!view.lines.length) {
		return (
			<div className="space-y-4 py-6 text-center">
				<p className="text-lg text-gray-800">Your cart is empty.</p>
				<Link to="/shop" className={buttonClass('primary')}>
					Continue Shopping
				</Link>
			</div>
		)
	}
	// Reading order is items, shipping, then the code, discount, summary and order button; on a wide screen those last
	// sit in the right column beside the items, so the order button is in view as the cart opens.
	return (
		<FormComponent method="post" action="/cart" id={CHECKOUT_FORM} key={draftKey(view)} preventScrollReset>
			<input type="hidden" name="returnTo" value={returnTo} />
			<input type="hidden" name="checkoutKey" value={view.draft.key} />
			<OfflineMessage intent="checkout" title={CHECKOUT_MESSAGES.checkoutFailed} description={CHECKOUT_MESSAGES.checkoutFailedFallback} />
			<OfflineMessage intent="apply-discount" title="Discount Code" description={CHECKOUT_MESSAGES.discountUnreachable} />
			<div className="grid gap-6 md:grid-cols-2 md:grid-rows-[auto_1fr]">
				<section aria-labelledby="cart-items-title">
					<h3 id="cart-items-title" className="mb-2 text-lg font-bold">
						Items
					</h3>
					{/* Enter in a text field saves the form rather than pressing the first quantity button. */}
					<button
						type="submit"
						form={CHECKOUT_FORM}
						name="intent"
						value="update-shipping"
						className="sr-only"
						tabIndex={-1}
						aria-hidden="true"
						formNoValidate
					>
						Save
					</button>
					<ul className="divide-y divide-gray-200">
						{view.lines.map(({ key, item, product }) => (
							<li key={key} className="py-3">
								<div className="flex items-start justify-between gap-3">
									<div>
										<p className="font-semibold">{product.name}</p>
										<p className="text-sm text-gray-700">{lineOptions(item).join(' · ')}</p>
										<p className="text-sm text-gray-700">
											FREE <span className="sr-only">(catalogue value {formatCents(product.priceCents)} each)</span>
										</p>
									</div>
									<button
										type="submit"
										form={CHECKOUT_FORM}
										name="intent"
										value={`remove:${key}`}
										className="-m-1 rounded p-2 text-xl leading-none text-gray-700 hover:bg-gray-100"
										aria-label={`Remove ${product.name}`}
										formNoValidate
									>
										×
									</button>
								</div>
								<div className="mt-2 flex items-center gap-2">
									<button
										type="submit"
										form={CHECKOUT_FORM}
										name="intent"
										value={`decrease:${key}`}
										className={buttonClass('secondary', 'min-h-9 px-3 py-1')}
										aria-label={`One fewer ${product.name}`}
										formNoValidate
									>
										−
									</button>
									{/* Read with its label, and announced when it changes. */}
									<output aria-live="polite" className="min-w-8 text-center font-semibold">
										<span className="sr-only">Quantity of {product.name}: </span>
										{item.quantity}
									</output>
									<button
										type="submit"
										form={CHECKOUT_FORM}
										name="intent"
										value={`increase:${key}`}
										className={buttonClass('secondary', 'min-h-9 px-3 py-1')}
										aria-label={`One more ${product.name}`}
										formNoValidate
									>
										+
									</button>
								</div>
							</li>
						))}
					</ul>
				</section>
				<div className="md:col-start-1">
					<ShippingFields view={view} errors={fieldErrors} />
				</div>
				<div className="space-y-5 md:sticky md:top-4 md:col-start-2 md:row-span-2 md:row-start-1 md:self-start">
					<QrCodeSelector view={view} errors={fieldErrors.selectedQrCodeId} />
					<DiscountBox view={view} errors={fieldErrors.discountInput} pending={pending === 'apply-discount'} />
					<OrderSummary view={view} />
					<ErrorList errors={message} />
					{view.signedIn ? (
						<StatusButton
							type="submit"
							name="intent"
							value="checkout"
							className="w-full"
							pending={pending === 'checkout'}
							pendingLabel="Processing..."
						>
							Complete FREE Order
						</StatusButton>
					) : (
						<div className="space-y-2 rounded-lg bg-blue-50 p-3">
							<p className="text-gray-900">Sign in to check out: every order is tied to one of your QR codes. Your cart stays as it is.</p>
							<StatusButton type="submit" name="intent" value="checkout" className="w-full" variant="blue" formNoValidate>
								Sign In to Check Out
							</StatusButton>
						</div>
					)}
				</div>
			</div>
		</FormComponent>
	)
}

/** A new server draft (after a submission) remounts the form so its fields show what was saved. */
function draftKey(view: CartView) {
	const { suggestions: _s, ...fields } = view.draft
	return JSON.stringify(fields)
}

function OrderSummary({ view }: { view: CartView }) {
	const rows: Array<[string, string]> = [
		['Subtotal', 'FREE'],
		...(view.discount ? ([[`Discount (${view.discount.code})`, 'FREE']] as Array<[string, string]>) : []),
		['Shipping', 'FREE'],
	]
	return (
		<section aria-labelledby="summary-title" className="rounded-lg border border-gray-300 p-3">
			<h3 id="summary-title" className="mb-2 font-bold">
				Order summary
			</h3>
			<dl className="grid grid-cols-[1fr_auto] gap-1">
				{rows.map(([label, value]) => (
					<div key={label} className="contents">
						<dt className="text-gray-800">{label}</dt>
						<dd className="text-right">{value}</dd>
					</div>
				))}
				<dt className="border-t border-gray-300 pt-1 font-bold">Total</dt>
				<dd className="border-t border-gray-300 pt-1 text-right font-bold">FREE</dd>
			</dl>
			<p className="mt-2 text-sm text-gray-700">Orders are free: the foundation covers them, and donations keep it that way.</p>
		</section>
	)
}

/** Which cart intent is in flight, for pending labels. */
/** The cart on its own page (/cart): plain page forms rather than the dialog's fetcher. */
export function CartPageContents({ view, errors }: { view: CartView; errors: CartErrors }) {
	return <CartContents view={view} errors={errors} FormComponent={Form} pending={usePendingIntent()} />
}

export function usePendingIntent(fetcherFormData?: FormData) {
	const navigation = useNavigation()
	const hydrated = useHydrated()
	const formData = fetcherFormData ?? navigation.formData
	return hydrated && formData ? (CART_INTENT_NAME.safeParse(Object.fromEntries(formData)).data ?? null) : null
}
