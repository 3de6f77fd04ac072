// Property-based fuzzing of Stripe's webhook on the built app, over HTTP: signed events of every type it handles, about
// what a stand-in for Stripe's API holds (stripe-events.ts), as Stripe sends them, misreporting it, about objects
// Stripe does not hold, malformed, with broken envelopes, some sent twice. No answer may be a 5xx; afterwards every
// gift in the database must be a payment Stripe holds as paid, recorded with Stripe's amount, and every receipt must
// go to an address Stripe holds. FUZZ_SEED replays a run; FUZZ_WEBHOOK_EVENTS sets its size.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import postgres from 'postgres'
import Stripe from 'stripe'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort, startAppServer } from '../e2e/app-server.ts'
import { call, signIn } from './accounts.ts'
import { createClient } from './http.ts'
import { createDataCrypto, parseDataKeys } from '#app/utils/data-crypto.server.ts'
import { deliveryArb, eventOf, makeWorld, serveStripe, type Delivery, type World } from './stripe-events.ts'

const EVENTS = Number(process.env.FUZZ_WEBHOOK_EVENTS ?? 300)
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const WEBHOOK_SECRET = 'whsec_fuzz'

type App = Awaited<ReturnType<typeof startAppServer>>
let app: App
let client: ReturnType<typeof createClient>
let stripe: Awaited<ReturnType<typeof serveStripe>>
let world: World

beforeAll(async () => {
	if (!existsSync(new URL('../../build/server/index.js', import.meta.url)))
		throw new Error('The fuzz suite runs the built app: run `npm run build` first.')
	stripe = await serveStripe()
	app = await startAppServer(await freePort(), {
		STRIPE_SECRET_KEY: 'sk_test_fuzz',
		STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
		STRIPE_API_BASE: stripe.base,
		RATE_LIMIT_STRICT_PER_MINUTE: '1000000',
		RATE_LIMIT_LOOSE_PER_MINUTE: '1000000',
		DATA_ENCRYPTION_KEYS: DATA_KEYS,
	})
	client = createClient(app.baseURL, { concurrency: 4 })
	// One account that exists, for the gifts (and monthly plans) that name one.
	const { email, password } = app.fixtures().users[0]!
	const me = JSON.parse((await call(client, await signIn(client, app.baseURL, email, password), 'GET', '/api/auth/user')).text) as {
		id: string
	}
	world = makeWorld(me.id)
	stripe.hold(world)
}, 240_000)

afterAll(async () => {
	client?.close()
	await app?.stop()
	await stripe?.close()
})

type Gift = {
	status: string
	paymentIntentId: string | null
	invoiceId: string | null
	amountCents: number
	feeCents: number
	chargedCents: number
	refundedCents: number
}

/** The app's data key, so the receipts' recipients (sealed at rest) can be read back. */
const DATA_KEYS = `fuzz:${randomBytes(32).toString('base64')}`
const opened = (rows: Array<{ to: string }>) => {
	const crypto = createDataCrypto(parseDataKeys(DATA_KEYS))
	return rows.map(({ to }) => ({ to: crypto.openText(to, 'emails.to_address') }))
}

/** The donations and receipts the stopped app left (the embedded database takes one process at a time). */
async function readDatabase(database: App['database']) {
	const gifts = `select status, payment_intent_id as "paymentIntentId", invoice_id as "invoiceId", amount_cents as "amountCents",
		fee_cents as "feeCents", charged_cents as "chargedCents", refunded_cents as "refundedCents" from donations`
	const receipts = `select to_address as "to" from emails where email_type = 'donation-receipt'`
	if (database.url) {
		const sql = postgres(database.url, { max: 1, onnotice: () => {} })
		try {
			return { gifts: await sql.unsafe<Gift[]>(gifts), receipts: opened(await sql.unsafe<Array<{ to: string }>>(receipts)) }
		} finally {
			await sql.end()
		}
	}
	const db = new PGlite(database.pgliteDir!)
	try {
		return { gifts: (await db.query<Gift>(gifts)).rows, receipts: opened((await db.query<{ to: string }>(receipts)).rows) }
	} finally {
		await db.close()
	}
}

/** Why Stripe's world does not bear this gift out; null when it does. */
function unconfirmed(gift: Gift) {
	// What the app recorded as charged (the gift and the fee covered), held to what Stripe says was paid.
	const charged = gift.chargedCents
	const held = (list: World['intents'], id: string | null) => list.find((object) => object.id === id)
	const kindOf = (metadata: unknown) => (metadata as { kind?: string } | null)?.kind
	if (gift.invoiceId) {
		const invoice = held(world.invoices, gift.invoiceId)
		const details = (invoice?.parent as { subscription_details?: { metadata?: unknown } } | undefined)?.subscription_details
		if (invoice?.status !== 'paid' || kindOf(details?.metadata) !== 'subscription') return 'Stripe holds no such paid invoice'
		if (invoice.amount_paid !== charged) return `Stripe's invoice says ${String(invoice.amount_paid)} cents`
	} else {
		const intent = held(world.intents, gift.paymentIntentId)
		if (kindOf(intent?.metadata) !== 'donation') return "Stripe holds no such payment of the app's"
		if (gift.status === 'failed') return intent!.status === 'succeeded' ? 'Stripe says this payment succeeded' : null
		if (intent!.status !== 'succeeded') return `Stripe says the payment is ${String(intent!.status)}`
		if (intent!.amount_received !== charged) return `Stripe's payment says ${String(intent!.amount_received)} cents`
	}
	if (!['succeeded', 'refunded'].includes(gift.status)) return `status ${gift.status}`
	return gift.refundedCents > charged ? 'more refunded than was paid' : null
}

async function runPool<T>(items: T[], concurrency: number, run: (item: T, index: number) => Promise<void>) {
	let next = 0
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < items.length) {
				const index = next++
				await run(items[index]!, index)
			}
		}),
	)
}

test(`${EVENTS} signed Stripe events: no 5xx, and no gift without a payment Stripe confirms`, async () => {
	const started = performance.now()
	const deliveries = fc.sample(deliveryArb(world), { numRuns: EVENTS, seed: SEED })
	const statuses = new Map<string, number>()
	const failures: string[] = []
	let sent = 0
	let recorded = 0

	const send = async (event: unknown, delivery: Delivery) => {
		const payload = JSON.stringify(event)
		const answer = await client.send({
			method: 'POST',
			path: '/api/stripe/webhook',
			headers: {
				'content-type': 'application/json',
				'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
			},
			body: Buffer.from(payload),
		})
		sent++
		const key = answer.ok ? String(answer.status) : 'no answer'
		statuses.set(key, (statuses.get(key) ?? 0) + 1)
		const body = answer.ok ? answer.body.toString('utf8') : ''
		if (!answer.ok || answer.status >= 500)
			failures.push(
				`${delivery.type} (${delivery.envelope}) ${delivery.what.slice(0, 200)} -> ${answer.ok ? `${answer.status} ${body.slice(0, 200)}` : answer.error}`,
			)
		if (body.includes('"outcome":"recorded"')) recorded++
	}
	await runPool(deliveries, 4, async (delivery, index) => {
		const event = eventOf(delivery, `evt_fuzz${SEED}_${index}`)
		await send(event, delivery)
		if (delivery.again) await send(event, delivery)
	})

	await app.stop({ keepData: true })
	const { gifts, receipts } = await readDatabase(app.database)
	app.removeData()
	const wrong = gifts.flatMap((gift) => {
		const why = unconfirmed(gift)
		return why ? [`${gift.status} gift of ${gift.amountCents}+${gift.feeCents} for ${gift.paymentIntentId ?? gift.invoiceId}: ${why}`] : []
	})
	const strangers = receipts.filter(({ to }) => !world.emails.has(to)).map(({ to }) => to)

	const seconds = (performance.now() - started) / 1000
	console.log(
		`fuzz webhook: ${sent} events (seed ${SEED}, FUZZ_SEED=${SEED} replays it) in ${seconds.toFixed(1)} s; answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ${recorded} recorded, ${gifts.length} donation rows, ${receipts.length} receipts, ${stripe.reads()} reads from Stripe`,
	)
	for (const failure of failures.slice(0, 10)) console.log(`fuzz webhook: server error: ${failure}`)

	expect.soft(failures, 'server errors').toEqual([])
	expect.soft(wrong, 'gifts Stripe does not bear out').toEqual([])
	expect.soft(strangers, 'receipts to addresses Stripe does not hold').toEqual([])
	// The run means something only if some events were recorded and some refused.
	expect.soft(recorded, 'events recorded').toBeGreaterThan(0)
	expect.soft(statuses.get('400') ?? 0, 'events refused').toBeGreaterThan(0)
}, 300_000)
