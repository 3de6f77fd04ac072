import { shippingDocumentPdf } from '#app/domain/admin/orders.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { refusedDownload } from '#app/utils/download.server.ts'
import type { Route } from './+types/shipping-document-pdf'

export async function loader({ params }: Route.LoaderArgs) {
	const pdf = await shippingDocumentPdf(params.orderId).catch((error: unknown) => {
		throw error instanceof DomainError ? refusedDownload(error) : error
	})
	if (!pdf) throw refusedDownload({ status: 404, message: 'Order not found.' }, { href: '/admin/orders', label: 'Back to the orders' })
	return new Response(Buffer.from(pdf), {
		headers: {
			'content-type': 'application/pdf',
			'content-disposition': `attachment; filename="packing-slip-${params.orderId.slice(-8)}.pdf"`,
			'cache-control': 'private, no-store',
		},
	})
}
