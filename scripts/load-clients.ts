import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { gunzipSync } from 'node:zlib'
import Stripe from 'stripe'
import { PASSWORD, type Person } from './load-seed.ts'

/*
 * The load test's clients (scripts/load-test.ts): responders scanning codes, and people who sign in, agree to the
 * consent forms, open the shop, add to the cart without JavaScript, place orders through the JSON API and give (Stripe's
 * webhook, signed as Stripe signs it). Every request is recorded with its start, duration and answer; what was
 * expected of it is judged afterwards, once the outage's times are known.
 */

export type Kind = 'scan' | 'page' | 'sign-in' | 'consent' | 'cart' | 'order' | 'donation' | 'sign-out'
export const KINDS: Kind[] = ['scan', 'page', 'sign-in', 'consent', 'cart', 'order', 'donation', 'sign-out']

export type Answer = { status: number; headers: IncomingHttpHeaders; raw: Buffer; text: () => string }

export type Phase = 'warm-up' | 'load' | 'settle' | 'shutdown'

export type Sent = {
	phase: Phase
	kind: Kind
	method: string
	path: string
	/** ms since the run began */
	start: number
	ms: number
	/** 0: no answer (see error) */
	status: number
	error: string | null
	retryAfter: string | null
	/** A stack trace or an error's name in the body of an error answer. */
	leak: boolean
	/** A response began but its body was cut off. */
	cut: boolean
	body?: string
}

export const WEBHOOK_SECRET = 'whsec_load_test'
const REQUEST_TIMEOUT_MS = 15_000
const PHONE =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const CONSENT_TYPES = ['hipaa', 'terms', 'emergency_disclaimer'] as const

export class Load {
	readonly sent: Sent[] = []
	readonly open = new Set<Sent>()
	readonly agent: Agent
	private readonly t0 = performance.now()
	private address = 0
	/** Scans answered 200, by the rate-limit key the app counted them under (scan:{codeId}:{address}). */
	readonly scanKeys: string[] = []
	readonly scanAttempts: string[] = []
	/** Idempotency keys of orders and payment-intent ids of gifts: confirmed, or still unanswered. */
	readonly orders = new Map<string, { userId: string; confirmed: boolean }>()
	readonly gifts = new Map<string, { event: string; confirmed: boolean }>()
	/** Consent answers by user and form: agreed (200), and sent without a clear answer (their fate unknown). */
	readonly consents = new Map<string, { agreed: number; unknown: number }>()
	/** Pages answered 200: each should become one row of `visits`; and pages asked for that got no answer at all. */
	pageViews = 0
	pagesUnanswered = 0
	/** While true, clients keep going; they stop after their current step once it is false. */
	running = false
	phase: Phase = 'warm-up'

	constructor(
		readonly port: number,
		readonly people: Person[],
		readonly product: { id: number; stickerSize: string | null },
		connections: number,
		/** Each gift's Checkout Session as Stripe holds it once paid: the webhook reads it back from Stripe's API. */
		readonly stripeSessions = new Map<string, object>(),
	) {
		this.agent = new Agent({ keepAlive: true, maxSockets: connections })
	}

	now() {
		return performance.now() - this.t0
	}

	/** An address of its own for each request that asks for one: the app sees it through X-Forwarded-For (TRUSTED_PROXIES). */
	nextAddress() {
		const n = ++this.address
		return `100.${64 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`
	}

	send(kind: Kind, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer | null> {
		const record: Sent = {
			phase: this.phase,
			kind,
			method,
			path,
			start: this.now(),
			ms: 0,
			status: 0,
			error: null,
			retryAfter: null,
			leak: false,
			cut: false,
		}
		this.sent.push(record)
		this.open.add(record)
		const all: Record<string, string> = {
			'accept-encoding': 'gzip',
			'user-agent': PHONE,
			'accept-language': 'en-US,en;q=0.9',
			...headers,
			...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
		}
		return new Promise((done) => {
			const finish = (answer: Answer | null, error: string | null) => {
				if (!this.open.delete(record)) return
				record.ms = this.now() - record.start
				record.error = error
				if (answer) {
					record.status = answer.status
					record.retryAfter = (answer.headers['retry-after'] as string | undefined) ?? null
					if (answer.status >= 400) {
						const text = answer.text()
						record.body = text.slice(0, 4000)
						record.leak = /\n\s+at \S+|\b(Type|Reference|Syntax|Range|Drizzle\w*|Postgres)Error\b|node_modules|ECONNREFUSED/.test(text)
					}
				}
				done(answer)
			}
			let responded = false
			const req = httpRequest({ host: '127.0.0.1', port: this.port, method, path, headers: all, agent: this.agent }, (res) => {
				responded = true
				const chunks: Buffer[] = []
				res.on('data', (chunk: Buffer) => chunks.push(chunk))
				res.on('error', () => {
					record.cut = true
					finish(null, 'response cut off')
				})
				res.on('aborted', () => (record.cut = true))
				res.on('end', () => {
					if (!res.complete) {
						record.cut = true
						return finish(null, 'response cut off')
					}
					const raw = Buffer.concat(chunks)
					const gzip = res.headers['content-encoding'] === 'gzip'
					const text = () => {
						try {
							return (gzip ? gunzipSync(raw) : raw).toString('utf8')
						} catch {
							return raw.toString('latin1')
						}
					}
					finish({ status: res.statusCode ?? 0, headers: res.headers, raw, text }, null)
				})
			})
			req.setTimeout(REQUEST_TIMEOUT_MS, () => {
				req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`))
			})
			req.on('error', (error: NodeJS.ErrnoException) => {
				if (responded) record.cut = true
				finish(null, error.code ?? error.message)
			})
			req.end(body)
		})
	}

	// ------------------------------------------------------------ responders

	async scan(person = this.people[Math.floor(Math.random() * this.people.length)]!) {
		const address = this.nextAddress()
		const key = `scan:${person.codeId}:${address}`
		this.scanAttempts.push(key)
		const answer = await this.send('scan', 'GET', `/scan/${person.token}`, { 'x-forwarded-for': address })
		if (answer?.status === 200) this.scanKeys.push(key)
		return answer
	}

	async page(path: string, cookie?: string) {
		const answer = await this.send('page', 'GET', path, {
			'x-forwarded-for': this.nextAddress(),
			accept: 'text/html',
			...(cookie ? { cookie } : {}),
		})
		if (answer?.status === 200 && String(answer.headers['content-type']).startsWith('text/html')) this.pageViews++
		if (!answer) this.pagesUnanswered++
		return answer
	}

	/** Scans back to back; now and then the landing page, as a phone that opened the site. */
	async responder() {
		await this.arrive()
		while (this.running) {
			const answer = Math.random() < 0.05 ? await this.page('/team') : await this.scan()
			await this.pause(answer)
		}
	}

	/** Clients arrive over the first second, not all in the same millisecond. */
	private arrive() {
		return sleep(Math.random() * 1000)
	}

	/** After an answer: a 503 is read and tried again a second later; no answer at all, a moment later. */
	private async pause(answer: Answer | null, think = 0) {
		if (answer?.status === 503) await sleep(1000)
		else if (!answer) await sleep(200)
		else if (think) await sleep(think)
	}

	// ------------------------------------------------------------ people

	private origin() {
		return `http://127.0.0.1:${this.port}`
	}

	private form(kind: Kind, path: string, fields: Record<string, string>, cookie: string | null, address: string) {
		return this.send(
			kind,
			'POST',
			path,
			{
				origin: this.origin(),
				'content-type': 'application/x-www-form-urlencoded',
				'x-forwarded-for': address,
				...(cookie ? { cookie } : {}),
			},
			new URLSearchParams(fields).toString(),
		)
	}

	private json(kind: Kind, path: string, value: unknown, headers: Record<string, string>) {
		return this.send(
			kind,
			'POST',
			path,
			{ origin: this.origin(), 'content-type': 'application/json', accept: 'application/json', ...headers },
			JSON.stringify(value),
		)
	}

	/** Signs in through the page form, as a browser without JavaScript does; the session cookie, or null. */
	async signIn(person: Person, address: string) {
		const answer = await this.form('sign-in', '/login', { email: person.email, password: PASSWORD }, null, address)
		const cookie = [answer?.headers['set-cookie'] ?? []]
			.flat()
			.map((c) => c.split(';')[0]!)
			.find((c) => c.startsWith('hmh_session=') && c.length > 'hmh_session='.length)
		return { answer, cookie: answer?.status === 302 && cookie ? cookie : null }
	}

	/**
	 * One person, again and again: sign in, agree to the consent forms (the first time), give once (Stripe's webhook,
	 * retried as Stripe retries), then three times: open the shop, add to the cart (a page form), order (the JSON API,
	 * the same key until it is confirmed) and scan their own code; sign out. A person thinks `think` ms between steps.
	 */
	async person(index: number, think: number) {
		const person = this.people[index % this.people.length]!
		const address = this.nextAddress()
		await this.arrive()
		for (let round = 0; this.running; round++) {
			const { answer, cookie } = await this.signIn(person, address)
			if (!cookie) {
				await this.pause(answer, think)
				continue
			}
			const headers = { cookie, 'x-forwarded-for': address }
			if (round === 0)
				for (const consentType of CONSENT_TYPES) {
					if (!this.running) return
					const id = `${person.userId}:${consentType}`
					const tally = this.consents.get(id) ?? { agreed: 0, unknown: 0 }
					this.consents.set(id, tally)
					const agreed = await this.json('consent', '/api/consent', { consentType, agreed: true }, headers)
					if (agreed?.status === 200) tally.agreed++
					else tally.unknown++
					await this.pause(agreed, think)
				}
			if (this.running) await this.give(person, `${this.phase}_${index}_${round}`)
			for (let order = 0; order < 3 && this.running; order++) {
				await this.pause(await this.page('/shop', cookie), think)
				const fields = { intent: 'add', productId: String(this.product.id), quantity: '1', returnTo: '/cart' }
				if (this.product.stickerSize) Object.assign(fields, { stickerSize: this.product.stickerSize })
				await this.pause(await this.form('cart', '/cart', fields, cookie, address), think)
				await this.placeOrder(person, `${this.phase}-${index}-${round}-${order}`, headers)
				await this.pause(await this.scan(person), think)
			}
			const out = await this.json('sign-out', '/api/auth/logout', {}, headers)
			await this.pause(out, think)
		}
	}

	/** Confirmed orders and acknowledged gifts so far. */
	confirmedWrites() {
		return {
			orders: [...this.orders.values()].filter((o) => o.confirmed).length,
			gifts: [...this.gifts.values()].filter((g) => g.confirmed).length,
		}
	}

	orderBody(person: Person) {
		return {
			items: [{ productId: this.product.id, quantity: 1, ...(this.product.stickerSize ? { stickerSize: this.product.stickerSize } : {}) }],
			shippingMethod: 'standard',
			shippingCountry: 'US',
			shippingAddress: { name: 'Load Person', address1: '12 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62701' },
			selectedQrCodeId: person.codeId,
		}
	}

	/** The same key until the order is confirmed (201, or 200 when a retry finds it); left unconfirmed if the run ends. */
	async placeOrder(person: Person, key: string, headers: Record<string, string>, untilStopped = true) {
		this.orders.set(key, { userId: person.userId, confirmed: false })
		while (!untilStopped || this.running) {
			const answer = await this.json('order', '/api/create-shop-order', this.orderBody(person), { ...headers, 'idempotency-key': key })
			if (answer && (answer.status === 200 || answer.status === 201)) {
				this.orders.get(key)!.confirmed = true
				return true
			}
			if (answer && answer.status !== 503) return false
			await this.pause(answer)
		}
		return false
	}

	/** Stripe's checkout.session.completed for a one-off gift, signed with the webhook secret; resent until a 2xx. */
	async give(person: Person, id: string, untilStopped = true) {
		const paymentIntent = `pi_load_${id}`
		const event = `evt_load_${id}`
		this.gifts.set(paymentIntent, { event, confirmed: false })
		const session = {
			id: `cs_load_${id}`,
			object: 'checkout.session',
			mode: 'payment',
			payment_status: 'paid',
			payment_intent: paymentIntent,
			amount_total: 2500,
			currency: 'usd',
			customer_details: { email: person.email, name: 'Load Person' },
			metadata: { kind: 'donation', tier: 'supporter', net_cents: '2500', user_id: person.userId },
		}
		this.stripeSessions.set(session.id, session)
		const payload = JSON.stringify({
			id: event,
			object: 'event',
			type: 'checkout.session.completed',
			created: Math.floor(Date.now() / 1000),
			data: { object: session },
		})
		while (!untilStopped || this.running) {
			// Signed at each attempt, as Stripe does (a signature is valid for 5 minutes).
			const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })
			const answer = await this.send(
				'donation',
				'POST',
				'/api/stripe/webhook',
				{
					'content-type': 'application/json',
					'stripe-signature': signature,
					'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
				},
				payload,
			)
			if (answer && answer.status >= 200 && answer.status < 300) {
				this.gifts.get(paymentIntent)!.confirmed = true
				return true
			}
			if (answer && answer.status !== 503) return false
			await this.pause(answer)
		}
		return false
	}

	/** After the run: what is still unconfirmed is sent again until the app answers (it is up, the database too). */
	async settle() {
		const byUser = new Map(this.people.map((p) => [p.userId, p]))
		for (const [key, order] of this.orders) {
			if (order.confirmed) continue
			const person = byUser.get(order.userId)!
			const { cookie } = await this.signIn(person, this.nextAddress())
			if (!cookie) throw new Error(`Signing in ${person.email} after the run failed`)
			await this.placeOrder(person, key, { cookie }, false)
		}
		for (const [paymentIntent, gift] of this.gifts) {
			if (gift.confirmed) continue
			const id = paymentIntent.replace(/^pi_load_/, '')
			const person = this.people[Number(id.split('_')[1]) % this.people.length]!
			await this.give(person, id, false)
		}
	}
}
