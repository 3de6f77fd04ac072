import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeSession = {
	id: string
	mode: string
	amountCents: number
	metadata: Record<string, string>
	successUrl: string
	email: string | null
	/** Set once the donor has paid (giving-kit.ts paidEvent): Stripe's copy says so from then on. */
	paid?: { email: string; name: string; amountCents: number }
}
export type FakeIntent = {
	id: string
	clientSecret: string
	amountCents: number
	metadata: Record<string, string>
	email: string | null
	/** Set once the card went through (giving-kit.ts succeededEvent). */
	succeeded?: { email: string }
}

const readForm = async (request: IncomingMessage) => {
	const chunks: Buffer[] = []
	for await (const chunk of request) chunks.push(chunk as Buffer)
	return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}
const metadataOf = (form: URLSearchParams) =>
	Object.fromEntries([...form].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]))
const randomId = () => Math.random().toString(36).slice(2, 14)

/**
 * A Stripe-compatible server on loopback for the journeys (STRIPE_API_BASE points the app at it): it creates Checkout
 * Sessions and PaymentIntents with the fields Stripe documents, answers them when the webhook reads them back, and its
 * "hosted page" sends the browser back as Stripe would.
 */
export async function startStripeServer() {
	const sessions: FakeSession[] = []
	const intents: FakeIntent[] = []
	const server = createServer(async (request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost')
		if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') return createSession(request, response)
		if (request.method === 'POST' && url.pathname === '/v1/payment_intents') return createIntent(request, response)
		const read = /^\/v1\/(checkout\/sessions|payment_intents)\/(\w+)$/.exec(url.pathname)
		const copy = read && request.method === 'GET' ? (read[1] === 'payment_intents' ? intentCopy(read[2]!) : sessionCopy(read[2]!)) : null
		if (copy) {
			response.writeHead(200, { 'content-type': 'application/json' })
			return response.end(JSON.stringify(copy))
		}
		const paying = /^\/pay\/(cs_test_\w+)$/.exec(url.pathname)
		const session = sessions.find((s) => s.id === paying?.[1])
		if (request.method === 'GET' && session) {
			const back = session.successUrl.replace('{CHECKOUT_SESSION_ID}', session.id)
			response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
			return response.end(
				`<!doctype html><html lang="en"><title>Test checkout</title><main><h1>Test checkout: $${(session.amountCents / 100).toFixed(2)}</h1><a href="${back}">Pay</a></main></html>`,
			)
		}
		response.writeHead(404, { 'content-type': 'application/json' })
		response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${url.pathname})` } }))
	})

	function sessionCopy(id: string) {
		const session = sessions.find((s) => s.id === id)
		if (!session) return null
		return {
			id,
			object: 'checkout.session',
			mode: session.mode,
			status: session.paid ? 'complete' : 'open',
			payment_status: session.paid ? 'paid' : 'unpaid',
			amount_total: session.paid?.amountCents ?? session.amountCents,
			currency: 'usd',
			payment_intent: session.paid ? `pi_${id}` : null,
			customer_details: session.paid ? { email: session.paid.email, name: session.paid.name } : null,
			customer_email: session.email,
			metadata: session.metadata,
		}
	}

	function intentCopy(id: string) {
		const intent = intents.find((i) => i.id === id)
		if (!intent) return null
		return {
			id,
			object: 'payment_intent',
			amount: intent.amountCents,
			amount_received: intent.succeeded ? intent.amountCents : 0,
			currency: 'usd',
			status: intent.succeeded ? 'succeeded' : 'requires_payment_method',
			receipt_email: intent.succeeded?.email ?? intent.email,
			latest_charge: null,
			metadata: intent.metadata,
		}
	}

	async function createSession(request: IncomingMessage, response: ServerResponse) {
		const form = await readForm(request)
		const id = `cs_test_${randomId()}`
		const metadata = metadataOf(form)
		const session = {
			id,
			mode: form.get('mode') ?? 'payment',
			amountCents: Number(form.get('line_items[0][price_data][unit_amount]')),
			metadata,
			successUrl: form.get('success_url') ?? '',
			email: form.get('customer_email'),
		}
		sessions.push(session)
		response.writeHead(200, { 'content-type': 'application/json' })
		response.end(
			JSON.stringify({
				id,
				object: 'checkout.session',
				mode: form.get('mode'),
				status: 'open',
				payment_status: 'unpaid',
				amount_total: session.amountCents,
				currency: 'usd',
				metadata,
				url: `${base}/pay/${id}`,
			}),
		)
	}

	async function createIntent(request: IncomingMessage, response: ServerResponse) {
		const form = await readForm(request)
		const id = `pi_${randomId()}`
		const intent = {
			id,
			clientSecret: `${id}_secret_${randomId()}`,
			amountCents: Number(form.get('amount')),
			metadata: metadataOf(form),
			email: form.get('receipt_email'),
		}
		intents.push(intent)
		response.writeHead(200, { 'content-type': 'application/json' })
		response.end(
			JSON.stringify({
				id,
				object: 'payment_intent',
				amount: intent.amountCents,
				currency: form.get('currency'),
				client_secret: intent.clientSecret,
				status: 'requires_payment_method',
				payment_method_types: ['card', 'link'],
				metadata: intent.metadata,
				receipt_email: intent.email,
			}),
		)
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	return { base, sessions, intents, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
