import { data, redirect, type RouterContextProvider } from 'react-router'
import { shippingAddressLines } from '#app/domain/admin/address.ts'
import { assignQrCodes, INVALID_CODE_IDS, orderDetails, setFulfillmentStatus, unassignQrCode } from '#app/domain/admin/orders.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'

export async function orderDetailLoader(orderId: string | undefined) {
	if (!orderId) throw data('Invalid order ID', { status: 400 })
	const details = await orderDetails(orderId)
	if (!details) throw data('Order not found.', { status: 404 })
	// Read here, so the page's script does not carry every address shape and country name.
	return { ...details, address: shippingAddressLines(details.order.shippingAddress) }
}

type Refusal = { intent: string; error: string; value?: string }

export async function orderDetailAction(request: Request, context: Readonly<RouterContextProvider>, orderId: string) {
	const form = await readPageForm(request)
	const intent = String(form.get('intent') ?? '')
	const here = `/admin/orders/${orderId}`
	const refuse = async (refusal: Refusal, title: string, status: number) =>
		data(refusal, { status, headers: await actionToast(request, context, { type: 'error', title, description: refusal.error }) })
	try {
		if (intent === 'assign') {
			const value = String(form.get('qrCodeIds') ?? '')
			try {
				const { assigned } = await assignQrCodes(orderId, value)
				const description = assigned.length
					? `Assigned ${assigned.length === 1 ? 'code' : 'codes'} ${assigned.join(', ')}.`
					: 'Those codes were already on this order.'
				return redirectWithToast(here, { type: 'success', title: 'QR Codes Assigned', description })
			} catch (error) {
				if (!(error instanceof DomainError) || error.status === 404) throw error
				const title = error.message === INVALID_CODE_IDS ? 'Invalid Input' : 'Assignment Failed'
				return refuse({ intent, error: error.message, value }, title, error.status)
			}
		}
		if (intent === 'unassign') {
			await unassignQrCode(orderId, Number(form.get('codeId')))
			return redirectWithToast(here, { type: 'success', title: 'Code Removed', description: 'The code is free for another order.' })
		}
		if (intent === 'ship') {
			await setFulfillmentStatus(orderId, 'shipped')
			return redirectWithToast(here, { type: 'success', title: 'Order Shipped', description: 'The customer was told by e-mail.' })
		}
	} catch (error) {
		if (error instanceof DomainError && error.status === 404) throw data(error.message, { status: 404 })
		if (error instanceof DomainError) return refuse({ intent, error: error.message }, 'Update Failed', error.status)
		throw error
	}
	throw redirect(here)
}
