// What Stripe holds for the webhook's fuzz run (payments, Checkout Sessions, charges, monthly gifts and their invoices),
// served on loopback as Stripe's API answers it, and generated events about it: as Stripe sends them, misreporting it,
// about objects Stripe does not hold, malformed, with broken envelopes.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'

export type StripeObject = Record<string, unknown> & { id: string; object: string }

export type World = {
	sessions: StripeObject[]
	intents: StripeObject[]
	charges: StripeObject[]
	invoices: StripeObject[]
	subscriptions: StripeObject[]
	/** Every address Stripe holds for a payer: the only ones a receipt may go to. */
	emails: Set<string>
}

/** An account that does not exist (deleted, say): its gifts are recorded without a donor. */
const GONE = '00000000-0000-4000-8000-000000000000'

/** A dozen one-off gifts (some failed, one not the app's), three monthly gifts and eight of their invoices (two unpaid). */
export function makeWorld(accountId: string): World {
	const paidAt = Math.floor(Date.now() / 1000) - 3600
	const gift = (kind: string, net: number, userId?: string) => ({
		kind,
		tier: kind === 'donation' ? 'advocate' : 'premium',
		net_cents: String(net),
		...(userId && { user_id: userId }),
	})
	const world: World = { sessions: [], intents: [], charges: [], invoices: [], subscriptions: [], emails: new Set() }
	for (let i = 0; i < 12; i++) {
		const net = 500 + 250 * i
		const charged = i % 3 === 0 ? net + 45 : net
		const succeeded = i % 4 !== 3
		const metadata = i === 10 ? { order: 'not-a-gift' } : gift('donation', net, [undefined, accountId, GONE][i % 3])
		const pi = `pi_world${i}`
		world.intents.push({
			id: pi,
			object: 'payment_intent',
			status: succeeded ? 'succeeded' : 'requires_payment_method',
			amount: charged,
			amount_received: succeeded ? charged : 0,
			currency: 'usd',
			receipt_email: i % 2 ? `payer${i}@example.com` : null,
			latest_charge: succeeded ? `ch_world${i}` : null,
			metadata,
		})
		if (i % 2 === 0)
			world.sessions.push({
				id: `cs_world${i}`,
				object: 'checkout.session',
				mode: 'payment',
				status: succeeded ? 'complete' : 'open',
				payment_status: succeeded ? 'paid' : 'unpaid',
				amount_total: charged,
				currency: 'usd',
				payment_intent: pi,
				customer_details: { email: `donor${i}@example.com`, name: 'World Donor' },
				metadata,
			})
		if (succeeded)
			world.charges.push({
				id: `ch_world${i}`,
				object: 'charge',
				payment_intent: pi,
				amount: charged,
				amount_refunded: i % 5 === 0 ? charged : Math.floor(charged / 3),
				refunded: i % 5 === 0,
				currency: 'usd',
				billing_details: { email: `card${i}@example.com`, name: 'Card Holder' },
			})
	}
	for (let j = 0; j < 3; j++) {
		const metadata = gift('subscription', 999, [accountId, GONE, undefined][j])
		const subscription = `sub_world${j}`
		world.sessions.push({
			id: `cs_worldsub${j}`,
			object: 'checkout.session',
			mode: 'subscription',
			status: 'complete',
			payment_status: 'paid',
			amount_total: 999,
			currency: 'usd',
			subscription,
			customer: `cus_world${j}`,
			customer_details: { email: `monthly${j}@example.com`, name: 'Monthly Donor' },
			metadata,
		})
		world.subscriptions.push({
			id: subscription,
			object: 'subscription',
			status: 'active',
			items: { object: 'list', data: [{ current_period_end: paidAt + 30 * 86_400 }] },
			metadata,
		})
	}
	for (let k = 0; k < 8; k++) {
		const paid = k % 4 !== 3
		const subscription = world.subscriptions[k % 3]!
		world.invoices.push({
			id: `in_world${k}`,
			object: 'invoice',
			status: paid ? 'paid' : 'open',
			amount_paid: paid ? (k % 2 ? 1045 : 999) : 0,
			currency: 'usd',
			customer_email: `monthly${k % 3}@example.com`,
			customer_name: 'Monthly Donor',
			status_transitions: { paid_at: paid ? paidAt : null },
			parent: {
				type: 'subscription_details',
				subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
			},
		})
	}
	for (const address of JSON.stringify(world).match(/[\w.]+@example\.com/g) ?? []) world.emails.add(address)
	return world
}

/**
 * Stripe's API on loopback, as the webhook reads it: GET /v1/{checkout/sessions,payment_intents,invoices,charges}/{id}
 * answers what the world holds, or Stripe's 404. It holds nothing until `hold`.
 */
export async function serveStripe() {
	let held = new Map<string, StripeObject>()
	let reads = 0
	const server = createServer((request, response) => {
		const path = new URL(request.url ?? '/', 'http://stripe').pathname
		const match = /^\/v1\/(checkout\/sessions|payment_intents|invoices|charges)\/([^/]+)$/.exec(path)
		const object = request.method === 'GET' && match ? held.get(`${match[1]}/${decodeURIComponent(match[2]!)}`) : undefined
		if (match) reads++
		response.writeHead(object ? 200 : 404, { 'content-type': 'application/json' })
		response.end(
			JSON.stringify(object ?? { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${path}` } }),
		)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return {
		base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		hold(world: World) {
			const path: Record<string, string> = {
				'checkout.session': 'checkout/sessions',
				payment_intent: 'payment_intents',
				invoice: 'invoices',
				charge: 'charges',
			}
			const objects = [...world.sessions, ...world.intents, ...world.invoices, ...world.charges]
			held = new Map(objects.map((object) => [`${path[object.object]}/${object.id}`, object]))
		},
		reads: () => reads,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

export const HANDLED = [
	'checkout.session.completed',
	'checkout.session.async_payment_succeeded',
	'payment_intent.succeeded',
	'payment_intent.payment_failed',
	'charge.refunded',
	'invoice.paid',
	'invoice.payment_failed',
	'customer.subscription.updated',
	'customer.subscription.deleted',
] as const

/** What Stripe holds of the kind an event of this type is about. */
function heldFor(world: World, type: string) {
	if (type.startsWith('checkout.session.')) return world.sessions
	if (type.startsWith('payment_intent.')) return world.intents
	if (type.startsWith('charge.')) return world.charges
	if (type.startsWith('invoice.')) return world.invoices
	return world.subscriptions
}

const cents = fc.integer({ min: 0, max: 99_999_999 })

const metadataArb = fc.oneof(
	fc.record(
		{
			kind: fc.constantFrom('donation', 'subscription', 'order'),
			tier: fc.constantFrom('advocate', 'premium', '', 'x'.repeat(200)),
			net_cents: fc.oneof(cents.map(String), fc.constantFrom('-1', '1e3', '', '100000000', 'NaN', ' 5')),
			user_id: fc.oneof(fc.uuid(), fc.constantFrom('', 'not-an-account', GONE)),
		},
		{ requiredKeys: ['kind'] },
	),
	fc.constantFrom({}, null),
)

/** Stripe's object with what the event says of it changed: amounts, status, payer, gift, what it points to. */
const lieArb = (world: World) =>
	fc.record(
		{
			amount: cents,
			amount_received: cents,
			amount_total: cents,
			amount_paid: cents,
			amount_refunded: cents,
			refunded: fc.boolean(),
			status: fc.constantFrom('succeeded', 'paid', 'open', 'canceled', 'active'),
			payment_status: fc.constantFrom('paid', 'unpaid'),
			mode: fc.constantFrom('payment', 'subscription'),
			payment_intent: fc.constantFrom(...world.intents.map((intent) => intent.id), 'pi_notheld'),
			subscription: fc.constantFrom(...world.subscriptions.map((subscription) => subscription.id), 'sub_notheld'),
			receipt_email: fc.constant('liar@example.net'),
			customer_email: fc.constant('liar@example.net'),
			customer_details: fc.constant({ email: 'liar@example.net', name: 'Someone Else' }),
			metadata: metadataArb,
			parent: metadataArb.map((metadata) => ({ subscription_details: { subscription: world.subscriptions[0]!.id, metadata } })),
		},
		{ requiredKeys: [] },
	)

const oddValue = fc.oneof(
	fc.constantFrom(null, -1, -1500, 100_000_000, 2 ** 31, 2 ** 53, 1e21, 1.5, Number.MAX_VALUE),
	fc.constantFrom('1500', '', 'a\u0000b', 'x'.repeat(600), true, {}, []),
	fc.string({ maxLength: 20 }),
)
const FIELDS = [
	'id',
	'amount',
	'amount_received',
	'amount_total',
	'amount_paid',
	'amount_refunded',
	'refunded',
	'status',
	'payment_status',
	'mode',
	'currency',
	'payment_intent',
	'subscription',
	'customer',
	'metadata',
	'customer_details',
	'customer_email',
	'receipt_email',
	'latest_charge',
	'status_transitions',
	'parent',
	'items',
]

function objectArb(world: World, type: string): fc.Arbitrary<{ object: unknown; what: string }> {
	const held = fc.constantFrom(...heldFor(world, type))
	return fc.oneof(
		{ weight: 4, arbitrary: held.map((object) => ({ object, what: `${object.id} as Stripe holds it` })) },
		{
			weight: 4,
			arbitrary: fc
				.tuple(held, lieArb(world))
				.map(([object, lie]) => ({ object: { ...object, ...lie }, what: `${object.id} misreported ${JSON.stringify(lie)}` })),
		},
		{
			weight: 2,
			arbitrary: fc.tuple(held, fc.stringMatching(/^[a-z0-9]{4,10}$/)).map(([object, suffix]) => {
				const id = `${object.id.split('_')[0]}_notheld${suffix}`
				return { object: { ...object, id }, what: `${id}, which Stripe does not hold` }
			}),
		},
		{
			weight: 3,
			arbitrary: fc.tuple(held, fc.constantFrom(...FIELDS), oddValue).map(([object, field, value]) => ({
				object: { ...object, [field]: value },
				what: `${object.id} with ${field}: ${JSON.stringify(value)?.slice(0, 40)}`,
			})),
		},
		{
			weight: 1,
			arbitrary: fc
				.oneof(fc.constantFrom(null, [], 'object', 42, {}), fc.anything({ maxDepth: 2, maxKeys: 5 }))
				.map((object) => ({ object, what: `the object ${JSON.stringify(object)?.slice(0, 60)}` })),
		},
	)
}

type Envelope =
	'well-formed' | 'no id' | 'odd id' | 'no data' | 'created before 1970' | 'created far ahead' | 'created as text' | 'not an object'

export type Delivery = { type: string; object: unknown; what: string; envelope: Envelope; again: boolean }

/** An event of a type the webhook handles (or now and then one it does not), sometimes sent twice. */
export function deliveryArb(world: World): fc.Arbitrary<Delivery> {
	const type = fc.oneof(
		{ weight: 12, arbitrary: fc.constantFrom<string>(...HANDLED) },
		{ weight: 1, arbitrary: fc.constantFrom('customer.created', 'invoice.created', 'Invoice.Paid', '', 'x'.repeat(150)) },
	)
	const envelope = fc.oneof(
		{ weight: 15, arbitrary: fc.constant<Envelope>('well-formed') },
		{
			weight: 1,
			arbitrary: fc.constantFrom<Envelope>(
				'no id',
				'odd id',
				'no data',
				'created before 1970',
				'created far ahead',
				'created as text',
				'not an object',
			),
		},
	)
	return type.chain((t) =>
		fc
			.record({
				type: fc.constant(t),
				object: objectArb(world, t),
				envelope,
				again: fc.nat(4).map((n) => n === 0),
			})
			.map(({ object, ...rest }) => ({ ...rest, object: object.object, what: object.what })),
	)
}

/** The event Stripe would send, with the envelope the delivery asks for. */
export function eventOf(delivery: Delivery, id: string): unknown {
	const event: Record<string, unknown> = {
		id,
		object: 'event',
		api_version: '2026-10-28.endive',
		created: Math.floor(Date.now() / 1000),
		type: delivery.type,
		data: { object: delivery.object },
	}
	switch (delivery.envelope) {
		case 'well-formed':
			return event
		case 'no id':
			return { ...event, id: undefined }
		case 'odd id':
			return { ...event, id: `${id}/../évt\u0000` }
		case 'no data':
			return { ...event, data: null }
		case 'created before 1970':
			return { ...event, created: -5 }
		case 'created far ahead':
			return { ...event, created: 1e20 }
		case 'created as text':
			return { ...event, created: String(event.created) }
		case 'not an object':
			return [event]
	}
}
