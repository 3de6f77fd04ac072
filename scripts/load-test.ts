import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import postgres from 'postgres'
import * as kit from './bench-kit.ts'
import { KINDS, Load, WEBHOOK_SECRET, type Answer, type Kind, type Sent } from './load-clients.ts'
import { clusterOf, startPostgres, stopPostgres } from './load-postgres.ts'
import { PASSWORD, seedPeople } from './load-seed.ts'

/*
 * `npm run test:load`: the built app (server.ts) on a throwaway PostgreSQL of its own, under load from concurrent
 * clients: responders scanning /scan/{token} for many codes, and people signing in, agreeing to the consent forms,
 * opening the shop, adding to the cart (a page form, no JavaScript), ordering (JSON API, with an idempotency key) and
 * giving (Stripe's webhook, signed). In the middle PostgreSQL is stopped (fast mode) and started again: meanwhile every
 * answer must be a clean 503 with Retry-After (pages that need no database may still answer 200), never a 500, a stack
 * trace or a hang, and afterwards everything works again without restarting the app. At the end the app gets SIGTERM
 * under load: the requests under way must be answered, and it must exit 0 having written what it kept in memory.
 * Then the database must hold exactly what was confirmed: every scan answered 200, every confirmed order once (with
 * its items), every gift once, every consent agreed once; every page view answered.
 *
 * Sizes: --clients N (LOAD_CLIENTS, 200), --duration S (LOAD_DURATION, 60), --people N (LOAD_PEOPLE: accounts with a
 * profile and a claimed code, as many as clients), --outage S (LOAD_OUTAGE: how long PostgreSQL stays down, 3), --ci
 * (20 clients for 10 s). One client in five is a person, the others responders; a person thinks LOAD_THINK_MS (100)
 * between steps. Ports: LOAD_PG_PORT (54350), LOAD_APP_PORT (3250). PG_BIN picks the PostgreSQL binaries.
 */

const { values: flags } = parseArgs({
	options: {
		ci: { type: 'boolean', default: false },
		clients: { type: 'string' },
		duration: { type: 'string' },
		people: { type: 'string' },
		outage: { type: 'string' },
	},
})

function size(flag: string | undefined, name: string, fallback: number) {
	if (flag !== undefined) process.env[name] = flag
	return kit.setting(name, fallback, { integer: true })
}

const CLIENTS = size(flags.clients, 'LOAD_CLIENTS', flags.ci ? 20 : 200)
const DURATION_S = size(flags.duration, 'LOAD_DURATION', flags.ci ? 10 : 60)
const PEOPLE = size(flags.people, 'LOAD_PEOPLE', CLIENTS)
const OUTAGE_S = size(flags.outage, 'LOAD_OUTAGE', 3)
const THINK_MS = kit.setting('LOAD_THINK_MS', 100, { integer: true })
const PG_PORT = kit.setting('LOAD_PG_PORT', 54350, { integer: true })
const APP_PORT = kit.setting('LOAD_APP_PORT', 3250, { integer: true })
/** PostgreSQL is stopped this far into the run. */
const RESTART_AT = 0.4
/** Requests sent this long after PostgreSQL accepts connections again must no longer get a 503. */
const RECOVERY_GRACE_MS = 3000
/** In the shutdown phase, SIGTERM comes this long after the clients start again. */
const SIGTERM_AFTER_MS = 2000
const EXIT_WITHIN_MS = 30_000

const failures: string[] = []
const check = (ok: boolean, message: string) => {
	if (!ok) failures.push(message)
	return ok
}

// ---------------------------------------------------------------- judging the answers

type Times = { stopIssued: number; stopped: number; startIssued: number; started: number; sigterm: number }

type Verdict = 'ok' | 'unavailable' | 'not accepted' | 'unexpected'

/**
 * What an answer should have been: 2xx/3xx; a 503 with Retry-After while PostgreSQL was down (for requests sent until
 * the grace after it was back); after SIGTERM, a connection refused or closed before the request was read (the server
 * had stopped accepting). Anything else is a failure.
 */
function judge(sent: Sent, t: Times): Verdict {
	const end = sent.start + sent.ms
	if (sent.status >= 200 && sent.status < 400) return 'ok'
	// Sent before the database was back (and reconnected), answered once it was going down.
	if (sent.status === 503 && sent.retryAfter && !sent.leak && end >= t.stopIssued && sent.start <= t.started + RECOVERY_GRACE_MS)
		return 'unavailable'
	const refused = sent.error === 'ECONNREFUSED' || ((sent.error === 'ECONNRESET' || sent.error === 'socket hang up') && !sent.cut)
	if (sent.phase === 'shutdown' && refused && sent.start >= t.sigterm) return 'not accepted'
	return 'unexpected'
}

function percentile(sorted: number[], p: number) {
	if (!sorted.length) return NaN
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : value < 10 ? value.toFixed(1) : value.toFixed(0))
const s = (value: number) => `${(value / 1000).toFixed(1)} s`

function describe(sent: Sent, t: Times) {
	const at = `${s(sent.start)}${sent.phase === 'shutdown' ? ` (${s(sent.start - t.sigterm)} after SIGTERM)` : ''}`
	const answer = sent.status ? `${sent.status}${sent.retryAfter ? ` Retry-After ${sent.retryAfter}` : ''}` : sent.error
	const body = sent.body ? `: ${sent.body.replace(/\s+/g, ' ').slice(0, 200)}` : ''
	return `${sent.method} ${sent.path.replace(/\/scan\/[\w-]+/, '/scan/…')} at ${at} → ${answer} after ${ms(sent.ms)} ms${sent.leak ? ' (error details in the body)' : ''}${body}`
}

// ---------------------------------------------------------------- the outage

type Probe = { name: string; ok: boolean; note: string }

/** While PostgreSQL is down: what a monitor, a responder, a person without JavaScript and an API client each get. */
async function probeOutage(load: Load, cookie: string) {
	const person = load.people[0]!
	const origin = `http://127.0.0.1:${APP_PORT}`
	const formPost = (kind: Kind, path: string, fields: Record<string, string>, extra: Record<string, string> = {}) =>
		load.send(
			kind,
			'POST',
			path,
			{ origin, 'content-type': 'application/x-www-form-urlencoded', ...extra },
			new URLSearchParams(fields).toString(),
		)
	// All at once: the outage lasts as long as it lasts, whatever the probes take.
	const [health, scan, dashboard, signIn, cart, order] = await Promise.all([
		load.send('page', 'GET', '/healthz', { accept: 'application/json' }),
		load.scan(person),
		load.send('page', 'GET', '/dashboard', { cookie, accept: 'text/html' }),
		// A person without JavaScript signs in: the page must give back the e-mail, not the password.
		formPost('sign-in', '/login', { email: person.email, password: PASSWORD }),
		formPost('cart', '/cart', { intent: 'add', productId: String(load.product.id), quantity: '2', returnTo: '/cart' }, { cookie }),
		load.send(
			'order',
			'POST',
			'/api/create-shop-order',
			{ origin, cookie, 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': 'probe-during-outage' },
			JSON.stringify(load.orderBody(person)),
		),
	])
	const status = (answer: Answer | null) => `${answer?.status ?? 'no answer'}`
	const unavailable = (answer: Answer | null) => answer?.status === 503 && !!answer.headers['retry-after']
	const probes: Probe[] = []
	const probe = (name: string, ok: boolean, note: string) => probes.push({ name, ok, note })

	probe('GET /healthz', unavailable(health), status(health))
	const reloads = /http-equiv="refresh"/.test(scan?.text() ?? '')
	probe('responder page', unavailable(scan) && reloads, `${status(scan)}, ${reloads ? 'reloads by itself' : 'no reload'}`)
	const screen = (dashboard?.text() ?? '').includes('Temporarily unavailable')
	probe('a page (signed in)', unavailable(dashboard) && screen, `${status(dashboard)}${screen ? ', the error screen' : ''}`)
	const signInPage = signIn?.text() ?? ''
	const keptEmail = signInPage.includes(`value="${person.email}"`)
	const keptPassword = signInPage.includes(PASSWORD)
	probe(
		'sign-in form without JavaScript',
		unavailable(signIn) && keptEmail && !keptPassword && /action="\/login"/.test(signInPage),
		`${status(signIn)}, e-mail ${keptEmail ? 'kept' : 'lost'}, password ${keptPassword ? 'WRITTEN BACK' : 'not written back'}`,
	)
	const cartPage = cart?.text() ?? ''
	const cartKept = /name="quantity"[^>]*value="2"/.test(cartPage) && /name="intent" value="add"/.test(cartPage)
	probe(
		'cart form without JavaScript',
		unavailable(cart) && cartKept,
		`${status(cart)}, ${cartKept ? 'quantity and intent kept' : 'form lost'}`,
	)
	const orderJson = order?.text() ?? ''
	probe('JSON API', unavailable(order) && /^\{"message":/.test(orderJson), `${status(order)} ${orderJson.slice(0, 80)}`)
	return probes
}

// ---------------------------------------------------------------- main

/** Stripe's API as far as the webhook reads it here: each gift's Checkout Session, paid, as the clients made it. */
async function startStripeApi(sessions: Map<string, object>) {
	const server = createServer((request, response) => {
		const id = /^\/v1\/checkout\/sessions\/(\w+)$/.exec(new URL(request.url ?? '/', 'http://stripe').pathname)?.[1]
		const session = request.method === 'GET' && id ? sessions.get(id) : undefined
		response.writeHead(session ? 200 : 404, { 'content-type': 'application/json' })
		response.end(
			JSON.stringify(session ?? { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such object' } }),
		)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	kit.onCleanup({ name: 'stop the Stripe API stand-in', run: () => new Promise<void>((resolve) => server.close(() => resolve())) })
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Debian's PostgreSQL binaries (or PG_BIN), as bench-kit.ts looks for them. */
function havePostgres() {
	const base = '/usr/lib/postgresql'
	return !!process.env.PG_BIN || (existsSync(base) && readdirSync(base).some((v) => existsSync(join(base, v, 'bin', 'initdb'))))
}

async function main() {
	if (!existsSync(join(kit.root, 'build/server/index.js'))) throw new Error('No build: run `npm run build` first (npm run test:load does).')
	// In `npm test` on a machine without PostgreSQL the rest of the tests still run; CI (which installs it) never skips.
	if (flags.ci && !process.env.CI && !havePostgres()) {
		console.log('load test skipped: no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql).')
		return
	}
	const work = kit.workFolder('hmh-load.')
	await kit.assertPortFree(APP_PORT, 'LOAD_APP_PORT')
	const step = stepTimer()
	letPostgresIn()
	// fsync off as in the benchmarks: a fast shutdown still writes every commit out (this test stops PostgreSQL, it
	// does not crash the machine), and the shutdown checkpoint takes a fraction of the time.
	const pg = await kit.startThrowawayPostgres({ port: PG_PORT, prefix: 'hmh-load-pg.', options: '-c fsync=off -c max_connections=100' })
	step('PostgreSQL started')
	const cluster = clusterOf(pg)
	const stripeSessions = new Map<string, object>()
	const stripeApi = await startStripeApi(stripeSessions)
	const env: NodeJS.ProcessEnv = {
		...process.env,
		...kit.loopbackServerEnv({ work, port: APP_PORT, sessionSecret: 'load-test' }),
		DATABASE_URL: pg.url,
		OIDC_ISSUER: '',
		// Each scan comes from an address of its own (X-Forwarded-For), so each is recorded and can be checked.
		TRUSTED_PROXIES: '127.0.0.1',
		RATE_LIMIT_STRICT_PER_MINUTE: '1000000',
		RATE_LIMIT_LOOSE_PER_MINUTE: '1000000',
		STRIPE_SECRET_KEY: 'sk_test_load',
		STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
		STRIPE_PUBLISHABLE_KEY: '',
		STRIPE_API_BASE: stripeApi,
		// The shutdown phase measures the drain itself: it begins at SIGTERM, with no wait for a load balancer (as set above).
	}
	Object.assign(process.env, env)

	const people = await seedPeople(PEOPLE)
	const seedMs = step('seeded')

	const app = kit.start('the app server', process.execPath, ['--import', 'tsx', 'server.ts'], env)
	let exit: { code: number | null; at: number } | null = null
	await kit.waitUntilListening(app, APP_PORT)
	step('app listening')

	// Warm-up: the page answers, a product to order, a sign-in works; the day's analytics salt is made.
	const productsAnswer = await fetch(`http://127.0.0.1:${APP_PORT}/api/products`).then((r) => r.json() as Promise<ProductList>)
	const chosen = productsAnswer.products.find((p) => !p.sizes?.length) ?? productsAnswer.products[0]
	if (!chosen) throw new Error('The shop has no products.')
	const load = new Load(APP_PORT, people, { id: chosen.id, stickerSize: chosen.sizes?.[0]?.id ?? null }, CLIENTS + 8, stripeSessions)
	app.child.on('exit', (code) => (exit = { code, at: load.now() }))
	const first = await load.scan(people[0])
	if (first?.status !== 200) throw new Error(kit.failure(app, `The responder page answered ${first?.status ?? first}.`))
	await load.page('/team')
	const { cookie: probeCookie } = await load.signIn(people[0]!, load.nextAddress())
	if (!probeCookie) throw new Error(kit.failure(app, 'Signing in failed before the run.'))

	const persons = Math.max(1, Math.round(CLIENTS / 5))
	console.log(
		`\nLoad test: ${CLIENTS} clients (${persons} people signing in, ordering and giving; ${CLIENTS - persons} responders scanning ${PEOPLE} codes) for ${DURATION_S} s`,
	)
	console.log(
		`PostgreSQL ${pg.version.replace(/^\D+/, '')} on 127.0.0.1:${PG_PORT}, stopped at ${s(DURATION_S * 1000 * RESTART_AT)} for ${OUTAGE_S} s`,
	)
	const loadBefore = loadavg()[0]!
	console.log(
		`Node ${process.version}, ${availableParallelism()} CPUs (load average ${loadBefore.toFixed(1)}); seeded ${PEOPLE} people in ${s(seedMs)}\n`,
	)

	// ------------------------------------------------------------ the run, with PostgreSQL restarted in the middle
	const run = () => [
		...Array.from({ length: CLIENTS - persons }, () => load.responder()),
		...Array.from({ length: persons }, (_, i) => load.person(i, THINK_MS)),
	]
	load.phase = 'load'
	load.running = true
	const runStart = load.now()
	const clients = Promise.all(run())
	await sleep(DURATION_S * 1000 * RESTART_AT)
	// The restart must find writes to keep: it waits (at most as long again) for a confirmed order and gift.
	const latest = load.now() + DURATION_S * 1000 * RESTART_AT
	while (load.now() < latest && !(load.confirmedWrites().orders && load.confirmedWrites().gifts)) await sleep(50)
	const t: Times = { stopIssued: load.now(), stopped: 0, startIssued: 0, started: 0, sigterm: Infinity }
	process.stdout.write(`  ${s(t.stopIssued - runStart)}: stopping PostgreSQL (fast)… `)
	const options = await stopPostgres(cluster)
	t.stopped = load.now()
	// The probes are judged by their answers; the outage lasts its time whatever they take.
	const probing = probeOutage(load, probeCookie)
	await sleep(OUTAGE_S * 1000)
	t.startIssued = load.now()
	await startPostgres(cluster, options)
	t.started = load.now()
	console.log(`down from ${s(t.stopped - runStart)}, accepting again at ${s(t.started - runStart)}`)
	// A slow restart must still leave time to see everything work again.
	await sleep(Math.max(0, runStart + DURATION_S * 1000 - load.now(), t.started + RECOVERY_GRACE_MS + 2000 - load.now()))
	load.running = false
	process.stdout.write(`  ${s(load.now() - runStart)}: stopping the clients… `)
	await clients
	const probes = await probing
	const runMs = load.now() - runStart
	console.log(`stopped at ${s(runMs)}`)
	step('run')
	if (app.exited()) throw new Error(kit.failure(app, `The app server ${app.exited()} during the run.`))

	// Orders and gifts the run left unanswered are sent again, as a client (or Stripe) would.
	load.phase = 'settle'
	const unsettled =
		[...load.orders.values()].filter((o) => !o.confirmed).length + [...load.gifts.values()].filter((g) => !g.confirmed).length
	await load.settle()
	step('unanswered orders and gifts sent again')

	// ------------------------------------------------------------ SIGTERM under load
	load.phase = 'shutdown'
	load.running = true
	const burst = Promise.all(run())
	await sleep(SIGTERM_AFTER_MS)
	const underWay = [...load.open]
	t.sigterm = load.now()
	app.child.kill('SIGTERM')
	const deadline = t.sigterm + EXIT_WITHIN_MS
	while (!exit && load.now() < deadline) await sleep(20)
	load.running = false
	await burst
	const exited = exit as { code: number | null; at: number } | null
	const drainLine = app.output.map(kit.logMessage).find((message) => message.startsWith('drained in')) ?? '(no drain report)'
	step('shutdown')

	// ------------------------------------------------------------ what the database holds
	const sql = postgres(pg.url, { max: 2, onnotice: () => {} })
	kit.onCleanup({ name: 'close the checking connection', run: () => sql.end({ timeout: 5 }) })
	const recordedKeys = new Set((await sql<{ key: string }[]>`select key from rate_limits where key like 'scan:%'`).map((r) => r.key))
	const count = async (query: Promise<Array<{ n: number }>>) => (await query)[0]?.n ?? 0
	const scans = await count(sql`select count(*)::int as n from qr_scans`)
	const orderRows = await sql<{ key: string; items: number }[]>`
		select o.idempotency_key as key, (select count(*)::int from order_items i where i.order_id = o.id) as items
		from orders o where o.idempotency_key is not null`
	const giftRows = await sql<{ pi: string; n: number }[]>`
		select payment_intent_id as pi, count(*)::int as n from donations where payment_intent_id like 'pi_load_%' group by 1`
	const consentRows = await sql<{ id: string; n: number }[]>`
		select user_id || ':' || consent_type as id, count(*)::int as n from consents group by 1`
	const visits = await count(sql`select count(*)::int as n from visits`)
	const slots = await count(sql`select count(*)::int as n from qr_codes where scan_alert_sent_at is not null`)
	const alerts = await count(sql`select count(*)::int as n from emails where email_type = 'scan-alert'`)
	// Each person owns one code: an alert is theirs when it went to them.
	const alertsMissing = await sql`
		select q.id from qr_codes q
		where q.scan_alert_sent_at is not null
			and not exists (select 1 from emails e where e.email_type = 'scan-alert' and e.user_id = q.user_id)`

	step('database checked')
	// ------------------------------------------------------------ report
	const verdicts = load.sent.map((sent) => ({ sent, verdict: judge(sent, t) }))
	const main = verdicts.filter(({ sent }) => sent.phase === 'load')
	const rows: string[][] = [['requests', 'sent', 'ok', '503 in outage', 'unexpected', 'p50 ms', 'p95 ms', 'max ms']]
	const line = (name: string, list: typeof main) => {
		const latencies = list
			.filter(({ verdict }) => verdict === 'ok')
			.map(({ sent }) => sent.ms)
			.sort((a, b) => a - b)
		rows.push([
			name,
			String(list.length),
			String(latencies.length),
			String(list.filter(({ verdict }) => verdict === 'unavailable').length),
			String(list.filter(({ verdict }) => verdict === 'unexpected').length),
			ms(percentile(latencies, 50)),
			ms(percentile(latencies, 95)),
			ms(latencies.at(-1) ?? NaN),
		])
	}
	for (const kind of KINDS)
		line(
			kind,
			main.filter(({ sent }) => sent.kind === kind),
		)
	line('all', main)
	console.log(`\n${kit.table(rows)}`)
	// The run itself keeps two or three processes busy (the app, PostgreSQL, these clients); past that, other work ran.
	const loadAfter = loadavg()[0]!
	const cpus = availableParallelism()
	if (loadBefore > cpus + 1 || loadAfter > 2 * cpus + 1)
		console.log(
			`WARNING: the machine was busy with other work (load average ${loadBefore.toFixed(1)} before the run, ${loadAfter.toFixed(1)} after, ${cpus} CPUs): the throughput and latency figures are not reliable.`,
		)
	const okCount = main.filter(({ verdict }) => verdict === 'ok').length
	console.log(
		`${main.length} requests in ${s(runMs)}: ${(main.length / (runMs / 1000)).toFixed(0)} requests/s, ${(okCount / (runMs / 1000)).toFixed(0)} answered ok/s (latency of the ok answers)`,
	)

	// The outage.
	const answeredBetween = (from: number, to: number) => main.filter(({ sent }) => sent.start + sent.ms >= from && sent.start + sent.ms < to)
	const tally = (list: typeof main) => {
		const byAnswer = new Map<string, number>()
		for (const { sent } of list) {
			const key = sent.status
				? `${sent.status}${sent.status === 503 ? (sent.retryAfter ? ' with Retry-After' : ' WITHOUT Retry-After') : ''}`
				: String(sent.error)
			byAnswer.set(key, (byAnswer.get(key) ?? 0) + 1)
		}
		const slowest = Math.max(0, ...list.map(({ sent }) => sent.ms))
		return `${[...byAnswer].map(([k, v]) => `${v} × ${k}`).join(', ') || 'none'}; slowest ${ms(slowest)} ms`
	}
	const recovered = main.find(
		({ sent, verdict }) => verdict === 'ok' && sent.kind === 'scan' && sent.start >= t.startIssued && sent.start + sent.ms >= t.started,
	)
	const last503 = main.filter(({ sent }) => sent.status === 503).at(-1)?.sent
	const relative = (at: number) => `${ms(Math.abs(at - t.started))} ms ${at >= t.started ? 'after' : 'before'}`
	console.log(
		`\nOutage: PostgreSQL stopped at ${s(t.stopIssued - runStart)} (down ${s(t.stopped - t.stopIssued)} later), started at ${s(t.startIssued - runStart)}, accepting at ${s(t.started - runStart)}: ${s(t.started - t.stopIssued)} without a database`,
	)
	console.log(`  answers while it was down: ${tally(answeredBetween(t.stopIssued, t.started))}`)
	console.log(`  answers in the ${RECOVERY_GRACE_MS / 1000} s after: ${tally(answeredBetween(t.started, t.started + RECOVERY_GRACE_MS))}`)
	console.log(
		`  first scan answered after the restart: ${recovered ? `${relative(recovered.sent.start + recovered.sent.ms)} PostgreSQL accepted again` : 'NONE'}; last 503: ${last503 ? `${relative(last503.start + last503.ms)}` : 'none'}`,
	)
	check(!!recovered, 'No scan was answered after PostgreSQL came back.')
	for (const probe of probes) {
		console.log(`  ${probe.ok ? 'ok  ' : 'FAIL'} ${probe.name}: ${probe.note}`)
		check(probe.ok, `During the outage, ${probe.name}: ${probe.note}`)
	}

	// Writes.
	console.log('\nWrites (checked in the database after the shutdown):')
	const scanned = new Set(load.scanKeys)
	const lostScans = [...scanned].filter((key) => !recordedKeys.has(key))
	const unanswered = load.scanAttempts.filter((key) => !scanned.has(key))
	const recordedUnanswered = unanswered.filter((key) => recordedKeys.has(key)).length
	console.log(
		`  scans: ${load.scanAttempts.length} sent, ${scanned.size} answered 200, ${recordedKeys.size} recorded (qr_scans: ${scans}); lost ${lostScans.length}, recorded though unanswered ${recordedUnanswered}`,
	)
	check(lostScans.length === 0, `${lostScans.length} scans answered 200 were not recorded.`)
	check(scans === recordedKeys.size, `qr_scans holds ${scans} rows for ${recordedKeys.size} counted scans.`)

	const orderByKey = new Map(orderRows.map((r) => [r.key, r]))
	const confirmed = [...load.orders].filter(([, o]) => o.confirmed)
	const missing = confirmed.filter(([key]) => !orderByKey.has(key))
	const badItems = confirmed.filter(([key]) => orderByKey.get(key) && orderByKey.get(key)!.items !== 1)
	const unconfirmed = [...load.orders].filter(([, o]) => !o.confirmed)
	const unconfirmedFound = unconfirmed.filter(([key]) => orderByKey.has(key))
	const ours = orderRows.filter((r) => load.orders.has(r.key)).length
	console.log(
		`  orders: ${load.orders.size} placed (${unsettled} orders and gifts were unanswered when the run ended and were sent again), ${confirmed.length} confirmed, ${ours} found, each once with its item; missing ${missing.length}, wrong items ${badItems.length}; unconfirmed (SIGTERM) ${unconfirmed.length}, of which recorded ${unconfirmedFound.length}`,
	)
	check(missing.length === 0, `${missing.length} confirmed orders are missing.`)
	check(confirmed.length > 0, 'No order was confirmed: the run was too short or the machine too slow to test orders.')
	check(badItems.length === 0, `${badItems.length} orders lack their item.`)
	check(unconfirmedFound.length === 0, `${unconfirmedFound.length} orders were recorded although their answer never came.`)

	const giftCount = new Map(giftRows.map((r) => [r.pi, r.n]))
	const givenOk = [...load.gifts].filter(([, g]) => g.confirmed)
	const giftsMissing = givenOk.filter(([pi]) => !giftCount.get(pi))
	const giftsTwice = [...giftCount.values()].filter((n) => n > 1).length
	console.log(
		`  gifts (Stripe webhook): ${load.gifts.size} sent, ${givenOk.length} acknowledged, ${giftRows.length} recorded; missing ${giftsMissing.length}, twice ${giftsTwice}`,
	)
	check(giftsMissing.length === 0, `${giftsMissing.length} acknowledged gifts are missing.`)
	check(givenOk.length > 0, 'No gift was acknowledged: the run was too short or the machine too slow to test gifts.')
	check(giftsTwice === 0, `${giftsTwice} gifts were recorded twice.`)

	// A person's agreement to a form is recorded once, however often it is sent (a retry, a later round agreeing again).
	const consentCount = new Map(consentRows.map((r) => [r.id, r.n]))
	let agreed = 0
	let agreedForms = 0
	let consentRowsOurs = 0
	let consentsLost = 0
	let consentsTwice = 0
	let consentsExtra = 0
	for (const [id, tally] of load.consents) {
		const n = consentCount.get(id) ?? 0
		agreed += tally.agreed
		if (tally.agreed > 0) agreedForms++
		consentRowsOurs += n
		if (tally.agreed > 0 && n === 0) consentsLost++
		if (n > 1) consentsTwice += n - 1
		if (n > 0 && tally.agreed === 0 && tally.unknown === 0) consentsExtra += n
	}
	const consentUnknown = [...load.consents.values()].reduce((sum, c) => sum + c.unknown, 0)
	console.log(
		`  consents: ${agreed} agreements answered 200 for ${agreedForms} person-forms, ${consentRowsOurs} recorded; lost ${consentsLost}, twice ${consentsTwice}; ${consentUnknown} sent without an answer`,
	)
	check(consentsLost === 0, `${consentsLost} agreed consents are missing.`)
	check(agreed > 0, 'No consent was agreed: the run was too short or the machine too slow to test consents.')
	check(consentsTwice === 0, `${consentsTwice} consents were recorded twice.`)
	check(consentsExtra === 0, `${consentsExtra} consents were recorded that were never sent.`)

	// A page the client gave up on may still have been served, and counted.
	console.log(
		`  page views (kept in memory, written at least every second and at shutdown): ${load.pageViews} pages answered, ${visits} recorded${load.pagesUnanswered ? ` (${load.pagesUnanswered} more asked for without an answer)` : ''}`,
	)
	check(
		visits >= load.pageViews && visits <= load.pageViews + load.pagesUnanswered,
		`${load.pageViews} pages were answered (${load.pagesUnanswered} more without an answer) but ${visits} page views recorded.`,
	)
	// The code's alert slot and the message about it are one transaction: an outage loses both or neither.
	console.log(
		`  scan alerts (recorded with the code's alert slot): ${slots} codes due an alert, ${alerts} recorded; missing ${alertsMissing.length}`,
	)
	check(alertsMissing.length === 0, `${alertsMissing.length} scan alerts were due but never recorded.`)

	// SIGTERM.
	const shutdown = verdicts.filter(({ sent }) => sent.phase === 'shutdown')
	const underWaySet = new Set(underWay)
	const inFlight = shutdown.filter(({ sent }) => underWaySet.has(sent))
	const inFlightOk = inFlight.filter(({ verdict }) => verdict === 'ok').length
	const after = shutdown.filter(({ sent }) => sent.start >= t.sigterm)
	const afterOk = after.filter(({ verdict }) => verdict === 'ok').length
	const notAccepted = after.filter(({ verdict }) => verdict === 'not accepted').length
	console.log(
		`\nShutdown: SIGTERM ${s(SIGTERM_AFTER_MS)} into a burst with ${underWay.length} requests under way: ${inFlightOk} answered ok, ${inFlight.length - inFlightOk} not`,
	)
	console.log(
		`  sent after SIGTERM: ${after.length}: ${afterOk} answered on connections already open (each with Connection: close), ${notAccepted} refused (no longer listening)`,
	)
	console.log(
		`  server: ${drainLine}; ${exited ? `exited with code ${exited.code} ${ms(exited.at - t.sigterm)} ms after SIGTERM` : `still running ${EXIT_WITHIN_MS / 1000} s after SIGTERM`}`,
	)
	check(inFlightOk === inFlight.length, `${inFlight.length - inFlightOk} requests under way at SIGTERM were not answered.`)
	check(exited?.code === 0, `The app did not exit 0 after SIGTERM (${exited ? `code ${exited.code}` : 'still running'}).`)

	const unexpected = verdicts.filter(({ verdict }) => verdict === 'unexpected')
	if (unexpected.length) {
		failures.push(`${unexpected.length} unexpected answers (see above).`)
		// Grouped by request and answer: the first of each, and how many.
		const groups = new Map<string, Sent[]>()
		for (const { sent } of unexpected) {
			const key = `${sent.phase} ${sent.method} ${sent.path.replace(/\/scan\/[\w-]+/, '/scan/…')} → ${sent.status || sent.error}`
			groups.set(key, [...(groups.get(key) ?? []), sent])
		}
		console.log(`\nUnexpected answers (${unexpected.length}):`)
		for (const [, list] of [...groups].sort((a, b) => b[1].length - a[1].length).slice(0, 12))
			console.log(`  ${list.length} × ${describe(list[0]!, t)}${list.length > 1 ? `; last at ${s(list.at(-1)!.start)}` : ''}`)
	}
	const leaks = verdicts.filter(({ sent }) => sent.leak)
	check(leaks.length === 0, `${leaks.length} answers showed error details.`)

	console.log(`\nTook: ${step.summary()}`)
	if (failures.length) throw new Error(`\n- ${failures.join('\n- ')}\n--- last output of the app server ---\n${app.output.join('\n')}`)
	console.log('\nload test: PASS')
}

/**
 * As root, PostgreSQL runs as the postgres user (bench-kit.ts), who must be able to pass through the temporary folder
 * to reach its own: `npm test` gives the run a private one (0700). Passing through is all it gets (no listing).
 */
function letPostgresIn() {
	if (process.getuid?.() !== 0) return
	const dir = tmpdir()
	const mode = statSync(dir).mode & 0o7777
	if (!(mode & 0o001)) chmodSync(dir, mode | 0o001)
}

/** Times each step of the test since the previous one, for the summary. */
function stepTimer() {
	let last = performance.now()
	const steps: string[] = []
	const step = (name: string) => {
		const now = performance.now()
		const took = now - last
		steps.push(`${name} ${s(took)}`)
		last = now
		return took
	}
	return Object.assign(step, { summary: () => steps.join(', ') })
}

type ProductList = { products: Array<{ id: number; sizes?: Array<{ id: string }> }> }

await kit.runBench('load test', main, { signalNote: 'stopping the app and PostgreSQL…' })
