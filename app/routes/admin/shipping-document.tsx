import { data, redirect } from 'react-router'
import { chosenCodeLine, codeCaption } from '#app/domain/admin/chosen-code.ts'
import { markDocumentGenerated, shippingDocument } from '#app/domain/admin/orders.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import type { Route } from './+types/shipping-document'
import { AddressLines } from './order-ui.tsx'

export async function loader({ params }: Route.LoaderArgs) {
	const doc = await shippingDocument(params.orderId)
	if (!doc) throw data('Order not found.', { status: 404 })
	const codes = doc.codes.map(({ svg, ...code }) => ({
		...code,
		image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
	}))
	return { ...doc, codes }
}

/** Generating the document (the order page's button) is what moves a processing order to fulfilled. */
export async function action({ params }: Route.ActionArgs) {
	try {
		await markDocumentGenerated(params.orderId)
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		if (error.status === 404) throw data(error.message, { status: 404 })
		return redirectWithToast(`/admin/orders/${params.orderId}`, { type: 'error', title: 'Update Failed', description: error.message })
	}
	return redirect(`/admin/order/${params.orderId}`, 303)
}

export default function ShippingDocumentPage({ loaderData: doc }: Route.ComponentProps) {
	return (
		<main id="main" className="mx-auto max-w-3xl bg-white p-8 text-gray-900 print:p-0">
			<div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
				<a href={`/admin/orders/${doc.orderId}`} className="font-semibold text-blue-800 underline">
					← Order {doc.orderNumber}
				</a>
				<a href={`/admin/order/${doc.orderId}/pdf`} className="font-semibold text-blue-800 underline">
					Download as PDF
				</a>
			</div>
			<h1 className="text-2xl font-bold">Packing slip · Order {doc.orderNumber}</h1>
			<p className="text-gray-700">Placed {doc.placedOn}</p>
			<div className="mt-6 grid gap-6 sm:grid-cols-2">
				<section aria-labelledby="ship-to">
					<h2 id="ship-to" className="text-sm font-bold tracking-wide text-gray-700 uppercase">
						Ship to
					</h2>
					<AddressLines lines={doc.shipTo} className="mt-1 text-lg" />
					{doc.shippingMethod ? <p className="mt-1 text-gray-700">Shipping: {doc.shippingMethod}</p> : null}
				</section>
				<section aria-labelledby="items">
					<h2 id="items" className="text-sm font-bold tracking-wide text-gray-700 uppercase">
						Items
					</h2>
					<ul className="mt-1 space-y-1">
						{doc.items.map((item, i) => (
							<li key={i}>
								{item.quantity} × {item.name}
								{item.options.length ? ` (${item.options.join(', ')})` : ''}
								{item.customText ? ` · “${item.customText}”` : ''}
							</li>
						))}
					</ul>
				</section>
			</div>
			<section aria-labelledby="codes" className="mt-8">
				<h2 id="codes" className="text-sm font-bold tracking-wide text-gray-700 uppercase">
					QR codes in this order
				</h2>
				<p className={doc.chosenCode?.assigned ? 'mt-1' : 'mt-1 font-semibold text-red-700'}>{chosenCodeLine(doc)}</p>
				<ul className="mt-2 grid grid-cols-2 gap-4 sm:grid-cols-4">
					{doc.codes.map((code) => (
						<li key={code.id} className="text-center break-inside-avoid">
							<img src={code.image} alt={`QR code ${code.id}`} width={128} height={128} className="mx-auto" />
							<p className="text-sm font-semibold">Code #{code.id}</p>
							<p className={code.pin ? 'font-mono text-sm' : 'text-sm'}>{codeCaption(code)}</p>
							<p className="font-mono text-xs break-all text-gray-700">{code.scanUrl}</p>
						</li>
					))}
				</ul>
			</section>
		</main>
	)
}

export const meta: Route.MetaFunction = ({ data: doc }) => pageMeta(`Packing slip ${doc?.orderNumber ?? ''}`)
