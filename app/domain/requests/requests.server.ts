import { db } from '#db/client.ts'
import { qrRequests } from '#db/schema.ts'
import { sendEmail } from '#app/adapters/mail.server.ts'
import { env } from '#app/utils/env.server.ts'
import { HONEYPOT_FIELD } from '#app/utils/honeypot.ts'
import type { QrRequestInput } from './schemas.ts'
import { log } from '#app/utils/log.server.ts'

export type QrRequestRow = typeof qrRequests.$inferSelect
export type QrRequestReceipt = { email: string; quantity: number; request: QrRequestRow | null }

/** A request as JSON clients see it (spec 002 §3): the address nested as it was sent. */
export function qrRequestJson(row: QrRequestRow) {
	const { id, fullName, email, quantity, streetAddress, city, state, postalCode, country, notes, requestStatus, createdAt } = row
	return {
		id,
		fullName,
		email,
		quantity,
		shippingAddress: { streetAddress, city, state, postalCode, country },
		notes,
		requestStatus,
		createdAt,
	}
}

/**
 * A free QR code request (spec 002 §2): stored as pending for the owner's fulfilment queue, then confirmed by e-mail.
 * A filled honeypot is answered like a success, so a bot learns nothing, but nothing is stored or sent.
 */
export async function submitQrRequest(input: QrRequestInput, userId: string | null): Promise<QrRequestReceipt> {
	const { email, quantity } = input
	if (input[HONEYPOT_FIELD]) {
		log.info('free code request dropped: honeypot filled')
		return { email, quantity, request: null }
	}
	const [request] = await db
		.insert(qrRequests)
		.values({
			userId,
			fullName: input.fullName,
			email,
			quantity,
			streetAddress: input.streetAddress,
			city: input.city,
			state: input.state,
			postalCode: input.postalCode,
			country: input.country,
			notes: input.notes || null,
			requestStatus: 'pending',
		})
		.returning()
	// Recorded before delivery is tried; a failed delivery is retried by the mail worker, never lost.
	await sendEmail({
		to: email,
		type: 'qr-request-confirmation',
		subject: 'We received your free QR code request',
		text: confirmationText(request!),
		userId: userId ?? undefined,
	})
	return { email, quantity, request: request! }
}

function confirmationText(request: QrRequestRow) {
	const codes = request.quantity === 1 ? '1 free emergency medical QR code' : `${request.quantity} free emergency medical QR codes`
	return [
		`Hello ${request.fullName},`,
		`Thank you for requesting ${codes} from Hit Me Helpers. Your request (number ${request.id}) is in our fulfilment queue, and we will mail it within 5-7 business days to:`,
		[request.fullName, request.streetAddress, `${request.city}, ${request.state} ${request.postalCode}`, request.country].join('\n'),
		...(request.notes ? [`Your notes: ${request.notes}`] : []),
		`Your code is personalised: when it arrives, enter the PIN printed beside it at ${env.PUBLIC_URL} to link it to your medical profile. From then on, scanning it shows the emergency information you choose to share.`,
		`Questions? Write to ${env.SUPPORT_EMAIL}. We will never ask for your password or PIN by e-mail.`,
		'Hit Me Helpers Foundation',
	].join('\n\n')
}
