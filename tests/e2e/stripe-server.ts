import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeSession = { id: string; amountCents: number; metadata: Record<string, string>; successUrl: string; email: string | null }
export type FakeIntent = { id: string; clientSecret: string; amountCents: number; metadata: Record<string, string>; email: string | null }

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
 * Sessions and PaymentIntents with the fields Stripe documents, and its "hosted page" sends the browser back as Stripe
 * would.
 */
export async function startStripeServer() {
	const sessions: FakeSession[] = []
	const intents: FakeIntent[] = []
	const server = createServer(async (request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost')
		if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') return createSession(request, response)
		if (request.method === 'POST' && url.pathname === '/v1/payment_intents') return createIntent(request, response)
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

	async function createSession(request: IncomingMessage, response: ServerResponse) {
		const form = await readForm(request)
		const id = `cs_test_${randomId()}`
		const metadata = metadataOf(form)
		const session = {
			id,
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
