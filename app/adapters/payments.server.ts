import Stripe from 'stripe'
import { env } from '#app/utils/env.server.ts'

/** Every call is made against this API version, whatever the account's default is. */
export const STRIPE_API_VERSION = '2026-10-28.endive'

/** Online giving needs the secret key (to start a payment) and the webhook secret (to learn that it succeeded). */
export function paymentsEnabled() {
	return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET)
}

let client: Stripe | undefined

/** The Stripe client; STRIPE_API_BASE points it at a Stripe-compatible server (tests, staging). */
function stripe() {
	if (!env.STRIPE_SECRET_KEY) throw new Error('Payments are not configured (STRIPE_SECRET_KEY)')
	if (client) return client
	const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null
	client = new Stripe(env.STRIPE_SECRET_KEY, {
		apiVersion: STRIPE_API_VERSION,
		maxNetworkRetries: 2,
		timeout: 15_000,
		telemetry: false,
		...(base && {
			host: base.hostname,
			port: base.port || (base.protocol === 'http:' ? 80 : 443),
			protocol: base.protocol === 'http:' ? 'http' : 'https',
		}),
	})
	return client
}

export type GiftMetadata = {
	/** Why the money came: a one-off gift ('donation') or a monthly plan ('subscription'). */
	kind: 'donation' | 'subscription'
	tier: string
	/** The gift itself, before any fees the donor chose to cover. */
	netCents: number
	userId?: string
}

/** The gift, as Stripe keeps it on the object and hands it back on each event (stripe-objects.ts giftOf reads it). */
const toMetadata = (gift: GiftMetadata) => ({
	kind: gift.kind,
	tier: gift.tier,
	net_cents: String(gift.netCents),
	...(gift.userId && { user_id: gift.userId }),
})

export type CheckoutStart = {
	gift: GiftMetadata
	/** What the donor pays: the gift, plus the fees if they chose to cover them. */
	amountCents: number
	email?: string
	successUrl: string
	cancelUrl: string
}

/** A hosted Checkout page for a one-off gift (no JavaScript needed); the browser is sent to its url. */
export function createDonationCheckout(start: CheckoutStart) {
	const metadata = toMetadata(start.gift)
	return createCheckout(start, {
		mode: 'payment',
		submit_type: 'donate',
		line_items: [lineItem(start.amountCents, `Donation to ${env.FOUNDATION_LEGAL_NAME}`)],
		payment_intent_data: { metadata },
	})
}

/** A hosted Checkout page for a monthly gift (Stripe Billing); Stripe charges it again each month. */
export function createSubscriptionCheckout(start: CheckoutStart & { planName: string }) {
	const metadata = toMetadata(start.gift)
	return createCheckout(start, {
		mode: 'subscription',
		line_items: [
			lineItem(start.amountCents, `${start.planName} monthly gift to ${env.FOUNDATION_LEGAL_NAME}`, { recurring: { interval: 'month' } }),
		],
		subscription_data: { metadata },
	})
}

const lineItem = (cents: number, name: string, price: { recurring?: { interval: 'month' } } = {}) => ({
	quantity: 1,
	price_data: { currency: 'usd', unit_amount: cents, product_data: { name }, ...price },
})

/** What every Checkout Session of ours shares: the donor's e-mail, the gift's metadata and the way back. */
async function createCheckout(start: CheckoutStart, params: Stripe.Checkout.SessionCreateParams) {
	const session = await stripe().checkout.sessions.create({
		customer_email: start.email,
		metadata: toMetadata(start.gift),
		success_url: start.successUrl,
		cancel_url: start.cancelUrl,
		...params,
	})
	if (!session.url) throw new Error(`Checkout Session ${session.id} came without a url`)
	return { id: session.id, url: session.url }
}

/** A payment the browser confirms in the Payment Element (/checkout); its webhook records it like any other. */
export async function createPaymentIntent(start: Omit<CheckoutStart, 'successUrl' | 'cancelUrl'>) {
	const intent = await stripe().paymentIntents.create({
		amount: start.amountCents,
		currency: 'usd',
		automatic_payment_methods: { enabled: true },
		metadata: toMetadata(start.gift),
		...(start.email && { receipt_email: start.email }),
	})
	if (!intent.client_secret) throw new Error(`PaymentIntent ${intent.id} came without a client secret`)
	return { id: intent.id, clientSecret: intent.client_secret, methods: intent.payment_method_types }
}

/** Stripe's page where a donor changes or cancels a monthly gift; it sends them back to `returnUrl`. */
export async function createBillingPortal(customerId: string, returnUrl: string) {
	const session = await stripe().billingPortal.sessions.create({ customer: customerId, return_url: returnUrl })
	return session.url
}

/** Stripe could not be asked (no connection, no answer in time, a failure on its side or a setting of ours): ask again later. */
export class PaymentsUnreachable extends Error {
	constructor(cause: unknown) {
		const what = cause instanceof Stripe.errors.StripeError ? `${cause.type}${cause.statusCode ? ` ${cause.statusCode}` : ''}` : 'no answer'
		super(`Stripe could not be asked (${what})`, { cause })
		this.name = 'PaymentsUnreachable'
	}
}

export type StripeObjectKind = 'checkout_session' | 'payment_intent' | 'invoice' | 'charge'

/** A webhook waits for Stripe this long, once, while Stripe waits for its answer: Stripe itself sends the event again. */
const LOOKUP = { timeout: 5_000, maxNetworkRetries: 0 }

/**
 * Stripe's own copy of an object an event names (unchecked: the caller reads it with its schema), or null when
 * Stripe has no such object. Throws PaymentsUnreachable when Stripe cannot say.
 */
export async function retrieveObject(kind: StripeObjectKind, id: string): Promise<unknown> {
	try {
		switch (kind) {
			case 'checkout_session':
				return await stripe().checkout.sessions.retrieve(id, {}, LOOKUP)
			case 'payment_intent':
				return await stripe().paymentIntents.retrieve(id, {}, LOOKUP)
			case 'invoice':
				return await stripe().invoices.retrieve(id, {}, LOOKUP)
			case 'charge':
				return await stripe().charges.retrieve(id, {}, LOOKUP)
		}
	} catch (error) {
		if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 404 || error.statusCode === 400)) return null
		throw new PaymentsUnreachable(error)
	}
}

/** A webhook's event, only if Stripe signed this very body with our secret in the last 5 minutes; else it throws. */
export function verifyWebhook(rawBody: string, signature: string | null) {
	if (!env.STRIPE_WEBHOOK_SECRET) throw new Error('Payments are not configured (STRIPE_WEBHOOK_SECRET)')
	return Stripe.webhooks.constructEvent(rawBody, signature ?? '', env.STRIPE_WEBHOOK_SECRET)
}

export type { Stripe }
