import { createCookie } from 'react-router'
import { z } from 'zod'
import { env, isProduction } from '#app/utils/env.server.ts'

/** Lets /request-qr/sent show its confirmation for a while after a submission, and only then. */
const receiptCookie = createCookie('hmh_qr_request', {
	path: '/request-qr',
	httpOnly: true,
	sameSite: 'lax',
	secure: isProduction && env.PUBLIC_URL.startsWith('https:'),
	secrets: env.sessionSecrets,
	maxAge: 30 * 60,
})

const ReceiptSchema = z.object({ email: z.string(), quantity: z.number() })
export type Receipt = z.infer<typeof ReceiptSchema>

export async function receiptHeaders(receipt: Receipt) {
	return { 'set-cookie': await receiptCookie.serialize({ email: receipt.email, quantity: receipt.quantity }) }
}

export async function readReceipt(request: Request) {
	const parsed = ReceiptSchema.safeParse(await receiptCookie.parse(request.headers.get('cookie')))
	return parsed.success ? parsed.data : null
}
