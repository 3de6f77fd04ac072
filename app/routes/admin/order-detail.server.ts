import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { shippingAddressLines } from '#app/domain/admin/address.ts'
import { assignQrCodes, INVALID_CODE_IDS, orderDetails, setFulfillmentStatus, unassignQrCode } from '#app/domain/admin/orders.server.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { OrderDetailActionSchema } from '#app/domain/admin/schemas.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import { ASSIGN_OPENER } from './assign-dialog.tsx'

export async function orderDetailLoader(orderId: string | undefined) {
	if (!orderId) throw data('Invalid order ID', { status: 400 })
	const details = await orderDetails(orderId)
	if (!details) throw data('Order not found.', { status: 404 })
	// Read here, so the page's script does not carry every address shape and country name.
	return { ...details, address: shippingAddressLines(details.order.shippingAddress) }
}

type Args = { request: Request; context: Readonly<RouterContextProvider> }

export async function orderDetailAction(args: Args, orderId: string) {
	const { request, context } = args
	const here = `/admin/orders/${orderId}`
	const submission = parseWithZod(await readPageForm(request), { schema: OrderDetailActionSchema })
	if (submission.status !== 'success') {
		const message = Object.values(submission.error ?? {}).find((messages) => messages?.length)?.[0] ?? UNKNOWN_ACTION
		const toast = await actionToast(request, context, { type: 'error', title: 'Update Failed', description: message })
		return data({ intent: null, result: submission.reply() }, { status: 400, headers: toast })
	}
	const action = submission.value
	try {
		switch (action.intent) {
			case 'assign': {
				const { assigned } = await assignQrCodes(orderId, action.qrCodeIds)
				const description = assigned.length
					? `Assigned ${assigned.length === 1 ? 'code' : 'codes'} ${assigned.join(', ')}.`
					: 'Those codes were already on this order.'
				return redirectWithToast(`${here}#${ASSIGN_OPENER}`, { type: 'success', title: 'QR Codes Assigned', description })
			}
			case 'unassign':
				await unassignQrCode(orderId, action.codeId)
				return redirectWithToast(here, { type: 'success', title: 'Code Removed', description: 'The code is free for another order.' })
			case 'ship':
				await setFulfillmentStatus(orderId, 'shipped')
				return redirectWithToast(here, { type: 'success', title: 'Order Shipped', description: 'The customer was told by e-mail.' })
			default: {
				const unknown: never = action
				return unknown
			}
		}
	} catch (error) {
		// The assign dialog shows its refusal beside the codes typed; the page's other forms, above them all.
		const assigning = action.intent === 'assign'
		const invalid = error instanceof Error && error.message === INVALID_CODE_IDS
		const toast = assigning ? (invalid ? 'Invalid Input' : 'Assignment Failed') : 'Update Failed'
		return replyError(args, submission, error, { toast, field: assigning ? 'qrCodeIds' : undefined, extra: { intent: action.intent } })
	}
}
