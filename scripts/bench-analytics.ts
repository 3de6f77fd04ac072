import { readFileSync, statSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import * as kit from './bench-kit.ts'

/*
 * `npm run bench:analytics`: a measurement, not a test. Seeds a year of page views and QR scans with set-based SQL,
 * rolls them up as the app's job does (app/domain/analytics/rollup.server.ts), then times every analytics read the owner's
 * pages make (p50/p95 of 20 calls after 2 warm-ups), the rollup job's recurring step, and the cost of recording a page
 * view (collect.server.ts). Goal: p95 at most 100 ms for every endpoint and range at 10M visits and 1M scans.
 *
 * PostgreSQL: DATABASE_URL when set (a database hmh_bench_analytics is created on it and dropped at the end); otherwise a
 * throwaway server from the Debian binaries on a free loopback port (fsync off, shared_buffers 256MB), stopped and
 * removed at the end, even on failure or Ctrl-C. On the throwaway server, an endpoint that misses the goal (every
 * endpoint with BENCH_EXPLAIN=all) is run once more with auto_explain: the plans of its BENCH_EXPLAIN_TOP (3) slowest
 * statements are printed, with their count and summed server time.
 *
 * Settings (environment): BENCH_SCALES (e.g. 1m,10m: run each in turn, reseeding from empty; a scale `<n>m` or `<n>k`
 * means that many visits and a tenth as many scans), BENCH_SCALE (one scale, e.g. 10m), else BENCH_VISITS (1000000) and
 * BENCH_SCANS (100000); BENCH_USERS (50000 at every scale: the overview counts them all), BENCH_CALLS (20),
 * BENCH_RECORD_VIEWS (20000), BENCH_PG_PORT (a free port), BENCH_PG_OPTIONS (more server options, e.g.
 * '-c max_parallel_workers_per_gather=0'), PG_BIN (the newest /usr/lib/postgresql/N/bin), BENCH_KEEP
 * (set: at the end the database stays up, its URL printed, until Ctrl-C: to EXPLAIN by hand).
 *
 * The seed is shaped like real traffic: more by day than by night (America/New_York), ~3 page views per visitor and
 * day, 35% phones and 10% tablets, a handful of browsers, ~40 paths with a skewed distribution, 5% bots, 1% the owner,
 * 1% excluded addresses, 20% first visits, 1% from an e-mail; rows go in in time order, as the app writes them.
 */

const GOAL_P95_MS = 100
const WARMUPS = 2
const CALLS = kit.setting('BENCH_CALLS', 20, { integer: true })
const RECORD_VIEWS = kit.setting('BENCH_RECORD_VIEWS', 20_000, { integer: true })
const EXPLAIN_TOP = kit.setting('BENCH_EXPLAIN_TOP', 3, { integer: true })
const BENCH_DATABASE = 'hmh_bench_analytics'
/** Rows per INSERT … SELECT generate_series: bounds the memory and the size of each statement. */
const CHUNK_ROWS = 1_000_000
const DAYS = 365
const HOUR_MS = 3_600_000
const ZONE = 'America/New_York'

/** `$1` numbered rows (`g`) with the given random columns and a `created` time up to `days` before `$2`, as `s`. */
const numberedRows = (days: number, columns: string, spread = 'random()') =>
	`(select g, ${columns}, $2::timestamptz - make_interval(secs => ${days} * 86400 * ${spread}) as created from generate_series(1, $1::int) as g offset 0) as s`

type Scale = { name: string; visits: number; scans: number; users: number }

function scaleOf(text: string): Scale {
	const match = /^(\d+(?:\.\d+)?)([km])$/i.exec(text.trim())
	if (!match) throw new Error(`BENCH_SCALES: ${JSON.stringify(text)} is not a scale such as 1m, 10m or 500k`)
	const visits = Math.round(Number(match[1]) * (match[2]!.toLowerCase() === 'm' ? 1_000_000 : 1_000))
	return { name: text.trim().toLowerCase(), visits, scans: Math.round(visits / 10), users: usersFor() }
}

function usersFor() {
	return kit.setting('BENCH_USERS', 50_000, { integer: true })
}

function scales(): Scale[] {
	const list = process.env.BENCH_SCALES ?? process.env.BENCH_SCALE
	if (list) return list.split(',').map(scaleOf)
	const visits = kit.setting('BENCH_VISITS', 1_000_000, { integer: true })
	const scans = kit.setting('BENCH_SCANS', 100_000, { integer: true })
	return [{ name: `${visits.toLocaleString('en-US')} visits`, visits, scans, users: usersFor() }]
}

/** Other work on the machine skews the figures: printed with them. */
const load = () =>
	loadavg()
		.map((l) => l.toFixed(2))
		.join(' ')
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0))
const count = (value: number | string | bigint) => Number(value).toLocaleString('en-US')
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

function percentile(values: number[], p: number) {
	if (values.length === 0) return Number.NaN
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

// ---------------------------------------------------------------- PostgreSQL

function freePort() {
	return new Promise<number>((done, fail) => {
		const server = createServer()
		server.once('error', fail)
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo
			server.close(() => done(port))
		})
	})
}

type Server = { url: string; description: string; log: string | null }

async function startThrowawayPostgres(): Promise<Server> {
	const port = process.env.BENCH_PG_PORT ? kit.setting('BENCH_PG_PORT', 1, { integer: true }) : await freePort()
	const options = [
		'-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=256MB',
		// The seed writes gigabytes: no checkpoint in the middle of it.
		'-c max_wal_size=8GB -c checkpoint_timeout=30min',
		// Loaded, but off (log_min_duration's default, -1) until an endpoint is explained: ALTER SYSTEM turns it on, which a
		// -c option would override.
		'-c session_preload_libraries=auto_explain',
		'-c auto_explain.log_analyze=on -c auto_explain.log_buffers=on -c auto_explain.log_timing=on',
		process.env.BENCH_PG_OPTIONS ?? '',
	].join(' ')
	const { url, log } = await kit.startThrowawayPostgres({ port, prefix: 'hmh-bench-analytics-pg.', options })
	return { url, description: `throwaway on 127.0.0.1:${port} (fsync off)`, log }
}

async function useOwnDatabase(databaseUrl: string): Promise<Server> {
	const url = await kit.useGivenPostgres(databaseUrl, BENCH_DATABASE)
	return { url, description: `database ${BENCH_DATABASE} on ${new URL(url).host} (DATABASE_URL)`, log: null }
}

// ---------------------------------------------------------------- seed: set-based SQL

type Sql = postgres.Sql

/** [first, last) day offsets (days back from today, ET) of each chunk, oldest first, so rows go in in time order. */
function slices(rows: number) {
	const chunks = Math.max(1, Math.ceil(rows / CHUNK_ROWS))
	return Array.from({ length: chunks }, (_, i) => {
		const near = Math.round((DAYS * (chunks - 1 - i)) / chunks)
		const far = Math.round((DAYS * (chunks - i)) / chunks)
		return { near, far, rows: Math.round((rows * (far - near)) / DAYS) }
	})
}

/** The hour of the ET day, shaped: most around mid-afternoon, few at night. `mix`, `a` in (0, 1], `b` are random(). */
const shapedHour = (mean: number, sd: number, dayShare: number) => `(case when mix < ${dayShare}
	then ${mean} + ${sd} * sqrt(-2 * ln(a)) * cos(2 * pi() * b) else 24 * a end)`

/** An instant of day `d` (days back from $now's ET day) at hour `h` (any real number: taken modulo 24). */
const instant = (now: string) =>
	`((((${now}::timestamptz at time zone '${ZONE}')::date - d) + make_interval(secs => (h - 24 * floor(h / 24)) * 3600)) at time zone '${ZONE}')`

const PATHS = [
	'/',
	'/scan/:token',
	'/shop',
	'/login',
	'/dashboard',
	'/signup',
	'/giving',
	'/medical',
	'/about',
	'/shop/cart',
	'/faq',
	'/qr-codes',
	'/medical/allergies',
	'/medical/medications',
	'/medical/contacts',
	'/shop/checkout',
	'/claim/:token',
	'/contact',
	'/privacy',
	'/terms',
	'/dashboard/profile',
	'/dashboard/settings',
	'/giving/monthly',
	'/shop/product/:id',
	'/medical/conditions',
	'/medical/insurance',
	'/medical/dnr',
	'/orders/:id',
	'/request-qr',
	'/how-it-works',
	'/responders',
	'/press',
	'/stories',
	'/blog',
	'/blog/:token',
	'/admin',
	'/admin/analytics',
	'/admin/orders',
	'/forgot-password',
	'/reset-password',
]
const sqlTextArray = (values: string[]) => `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}]`

async function seedVisits(pg: Sql, rows: number, now: string, users: number, emails: { min: number; count: number }) {
	// ~3 page views per visitor and day: each day's visitors are `pool` hashes, the owner one more.
	const pool = Math.max(1, Math.round(rows / DAYS / 3))
	const parts = slices(rows)
	for (const [i, part] of parts.entries()) {
		const started = performance.now()
		await pg.unsafe(
			`insert into visits (visited_at, path, visitor_hash, is_first_visit, user_id, ip_address, browser, device_type,
				referrer_host, email_id, is_bot, is_owner, is_excluded)
			select ts, path, hash, first_visit, user_id,
				-- The address is kept 48 hours.
				case when ts > $4::timestamptz - interval '48 hours' then
					case when excluded then '10.83.0.0'::inet + (abs(hash) % 65536) else '11.0.0.0'::inet + (abs(hash) % 3000000000) end
				end,
				browser, device, referrer, email_id, bot, owner, excluded
			from (
				select ${instant('$4')} as ts,
					(${sqlTextArray(PATHS)})[1 + floor(${PATHS.length} * power(rp, 2.5))::int] as path,
					case when rk < 0.05 then hashint8extended(-(d::bigint * 100000000 + g), 0)
						when rk < 0.06 then hashint8extended(d::bigint * 100000000 + $5::bigint, 0)
						else hashint8extended(d::bigint * 100000000 + k, 0) end as hash,
					rk < 0.05 or k % 5 = 0 as first_visit,
					case when rk >= 0.05 and rk < 0.06 then 'bench-u1'
						when ru < 0.06 then 'bench-u' || (2 + floor(ru / 0.06 * ($6::int - 1)))::int end as user_id,
					case when rk < 0.05 then 'Other' when v1 < 0.55 then 'Chrome' when v1 < 0.80 then 'Safari' when v1 < 0.87 then 'Firefox'
						when v1 < 0.93 then 'Edge' when v1 < 0.97 then 'Samsung Internet' else 'Opera' end as browser,
					case when rk < 0.05 or v2 >= 0.45 then 'desktop' when v2 < 0.35 then 'mobile' else 'tablet' end as device,
					case when rr < 0.55 then null when rr < 0.75 then 'www.google.com' when rr < 0.82 then 'www.facebook.com'
						when rr < 0.86 then 'l.instagram.com' when rr < 0.89 then 'www.bing.com' when rr < 0.91 then 't.co'
						when rr < 0.93 then 'duckduckgo.com' when rr < 0.95 then 'www.reddit.com' else 'news.example.org' end as referrer,
					case when re < 0.01 and $8::int > 0 and rk >= 0.05 then $7::int + floor(re * 100 * $8::int)::int end as email_id,
					rk < 0.05 as bot,
					rk >= 0.05 and rk < 0.06 as owner,
					rk >= 0.06 and rk < 0.07 as excluded
				from (
					select *, ${shapedHour(14.5, 3.2, 0.8)} as h,
						-- The same visitor keeps its browser and device all day.
						((k * 2654435761 + 12345) % 1000003) / 1000003.0 as v1, ((k * 40503 + 977) % 999983) / 999983.0 as v2
					from (
						select g, floor($1::int + random() * ($2::int - $1::int))::int as d, floor(random() * $5::bigint)::bigint as k,
							random() as mix, 1 - random() as a, random() as b, random() as rk, random() as rp, random() as rr,
							random() as re, random() as ru
						from generate_series(1, $3::int) as g
						offset 0
					) as r
				) as s
			) as v
			where ts <= $4::timestamptz
			order by ts`,
			[part.near, part.far, part.rows, now, pool, users, emails.min, emails.count],
		)
		console.log(`  visits ${i + 1}/${parts.length}: ${count(part.rows)} rows, days ${part.far}…${part.near} back, ${seconds(started)}`)
	}
}

async function seedScans(pg: Sql, rows: number, now: string, codes: { min: number; count: number }) {
	const parts = slices(rows)
	const places = `(array[['Springfield','IL'],['Columbus','OH'],['Austin','TX'],['Portland','OR'],['Miami','FL'],['Denver','CO'],['Boston','MA'],['Phoenix','AZ']])`
	for (const [i, part] of parts.entries()) {
		const started = performance.now()
		await pg.unsafe(
			`insert into qr_scans (qr_code_id, scanned_at, scanner_type, device_type, is_emergency_access, city, state, country,
				medical_facility, view_duration_seconds)
			select code, ts, scanner, device, coalesce(scanner = 'emergency_responder', false),
				case when place > 0 then ${places}[place][1] end, case when place > 0 then ${places}[place][2] end,
				case when place > 0 then 'US' end, facility, duration
			from (
				select ${instant('$4')} as ts,
					$5::int + floor(power(rq, 2) * $6::int)::int as code,
					case when rs < 0.85 then 'emergency_responder' when rs < 0.95 then 'owner' when rs < 0.99 then 'link_preview' end as scanner,
					case when rd < 0.78 then 'mobile' when rd < 0.90 then 'desktop' when rd < 0.97 then 'tablet' end as device,
					case when rc < 0.2 then 0 else 1 + floor((rc - 0.2) / 0.8 * 8)::int end as place,
					case when rf < 0.05 then 'General Hospital' end as facility,
					case when rs >= 0.95 then null else floor(5 + 600 * power(rv, 2))::int end as duration
				from (
					select *, ${shapedHour(15, 5, 0.6)} as h
					from (
						select floor($1::int + random() * ($2::int - $1::int))::int as d, random() as mix, 1 - random() as a, random() as b,
							random() as rq, random() as rs, random() as rd, random() as rc, random() as rf, random() as rv
						from generate_series(1, $3::int)
						offset 0
					) as r
				) as s
			) as v
			where ts <= $4::timestamptz
			order by ts`,
			[part.near, part.far, part.rows, now, codes.min, codes.count],
		)
		console.log(`  scans ${i + 1}/${parts.length}: ${count(part.rows)} rows, ${seconds(started)}`)
	}
}

/** Users, e-mails and their events, QR codes and downloads, orders and donations: the other tables the pages read. */
async function seedOthers(pg: Sql, scale: Scale, now: string) {
	const codes = Math.max(1000, Math.round(scale.scans / 20))
	const emails = Math.max(1000, Math.round(scale.visits / 200))
	const sales = Math.max(1000, Math.round(scale.visits / 500))
	const started = performance.now()
	// bench-u1 is the owner (1% of the visits).
	await pg.unsafe(
		`insert into users (id, email, username, password_hash, first_name, last_name, first_visit_on, created_at, updated_at)
		select 'bench-u' || g, 'user' || g || '@example.com', 'user' || g, case when r1 < 0.7 then 'bench-hash' end,
			(array['Maria','Luis','Ana','James','Wei','Fatima','Olga','Kwame'])[1 + g % 8],
			(array['Santos','Smith','Chen','Okafor','Novak','Garcia'])[1 + g % 6],
			case when r2 < 0.3 then (created at time zone '${ZONE}')::date
				when r2 < 0.45 then (created at time zone '${ZONE}')::date - (1 + floor(r3 * 30))::int end,
			created, created
		from ${numberedRows(1095, 'random() as r1, random() as r2, random() as r3', 'power(random(), 1.6)')} order by created`,
		[scale.users, now],
	)
	await pg.unsafe(
		`insert into emails (user_id, to_address, email_type, subject, text_body, status, attempts, tracking_id, sent_at, created_at, next_attempt_at)
		select case when r1 < 0.8 then 'bench-u' || (1 + floor(r1 / 0.8 * $3::int))::int end, 'user' || g || '@example.com',
			(array['welcome','scan_alert','receipt','notice'])[1 + floor(r2 * 4)::int], 'Bench message', 'Bench body',
			case when r3 < 0.95 then 'sent' when r3 < 0.98 then 'failed' else 'pending' end, 1,
			md5(g || ':' || random()), case when r3 < 0.95 then created + interval '5 seconds' end, created, created
		from ${numberedRows(365, 'random() as r1, random() as r2, random() as r3')} order by created`,
		[emails, now, scale.users],
	)
	await pg.unsafe(
		`insert into email_events (email_id, type, machine, url, created_at)
		select e.id, ev.type, ev.machine, ev.url, e.created_at + ev.after
		from (
			select id, created_at, random() as r1, random() as r2, random() as r3 from emails where status = 'sent' offset 0
		) as e
		cross join lateral (values
			('open', false, null::text, interval '2 hours', e.r1 < 0.45),
			('open', true, null, interval '1 minute', e.r2 < 0.2),
			('click', false, '/shop', interval '3 hours', e.r3 < 0.1)
		) as ev(type, machine, url, after, kept)
		where ev.kept
		order by 5`,
	)
	await pg.unsafe(
		`insert into qr_codes (token, pin, user_id, source, claimed_at, created_at, updated_at)
		select 'bench' || md5(g || ':' || random()), 'B' || lpad(g::text, 8, '0'),
			case when claimed then 'bench-u' || (1 + floor(r2 * $3::int))::int end,
			case when r3 < 0.75 then 'batch' else 'self' end,
			case when claimed then least(created + make_interval(secs => 30 * 86400 * r4), $2::timestamptz) end, created, created
		from ${numberedRows(730, 'random() < 0.6 as claimed, random() as r2, random() as r3, random() as r4')} order by created`,
		[codes, now, scale.users],
	)
	const [codeIds] = await pg<[{ min: number; count: number }]>`select min(id)::int as min, count(*)::int as count from qr_codes`
	await pg.unsafe(
		`insert into qr_downloads (qr_code_id, user_id, downloaded_at)
		select $3::int + floor(random() * $4::int)::int, 'bench-u' || (1 + floor(random() * $5::int))::int, t
		from (select $2::timestamptz - make_interval(secs => 365 * 86400 * random()) as t from generate_series(1, $1::int) offset 0) as s
		order by t`,
		[Math.round(codes / 2), now, codeIds.min, codeIds.count, scale.users],
	)
	await pg.unsafe(
		`insert into orders (id, confirmation_number, user_id, customer_name, customer_email, subtotal_cents, shipping_cents, total_cents,
			is_free, fulfillment_status, payment_status, charged_cents, refunded_cents, created_at, updated_at)
		select 'bench-o' || g, 'HMHB' || lpad(g::text, 8, '0'), case when r1 < 0.7 then 'bench-u' || (1 + floor(r1 / 0.7 * $3::int))::int end,
			'Customer ' || g, 'customer' || g || '@example.com', subtotal, 500, subtotal + 500, false,
			(array['pending','processing','fulfilled','shipped','delivered'])[1 + floor(r2 * 5)::int],
			case when r3 < 0.85 then 'completed' when r3 < 0.9 then 'pending' when r3 < 0.95 then 'failed' else 'refunded' end,
			case when r3 < 0.85 or r3 >= 0.95 then subtotal + 500 else 0 end, case when r3 >= 0.95 then subtotal + 500 else 0 end,
			created, created
		from ${numberedRows(365, 'random() as r1, random() as r2, random() as r3, (1500 + floor(random() * 8000))::int as subtotal')} order by created`,
		[sales, now, scale.users],
	)
	await pg.unsafe(
		`insert into donations (user_id, donor_email, donor_name, amount_cents, charged_cents, refunded_cents, tier, status, paid_at, created_at, updated_at)
		select case when r1 < 0.5 then 'bench-u' || (1 + floor(r1 / 0.5 * $3::int))::int end, 'donor' || g || '@example.com',
			case when r2 < 0.8 then 'Donor ' || g end, amount, case when status in ('succeeded', 'refunded') then amount else 0 end,
			case when status = 'refunded' then amount else 0 end, tier, status,
			case when status in ('succeeded', 'refunded') then created + interval '10 seconds' end, created, created
		from (
			select *, case tier when 'supporter' then 500 when 'advocate' then 1500 when 'champion' then 5000 else 100 * (1 + floor(r5 * 200))::int end as amount
			from (
				select g, r1, r2, r5, created, (array['supporter','advocate','champion','custom'])[1 + floor(r4 * 4)::int] as tier,
					case when r3 < 0.85 then 'succeeded' when r3 < 0.9 then 'pending' when r3 < 0.95 then 'failed' else 'refunded' end as status
				from ${numberedRows(365, 'random() as r1, random() as r2, random() as r3, random() as r4, random() as r5')}
			) as s
		) as d
		order by created`,
		[sales, now, scale.users],
	)
	console.log(
		`  ${count(scale.users)} users, ${count(emails)} e-mails, ${count(codes)} QR codes, ${count(sales)} orders and donations: ${seconds(started)}`,
	)
	const [emailIds] = await pg<[{ min: number; count: number }]>`select coalesce(min(id), 0)::int as min, count(*)::int as count from emails`
	return { codes: codeIds, emails: emailIds }
}

const SEEDED_TABLES = [
	'visits',
	'qr_scans',
	'qr_downloads',
	'email_events',
	'emails',
	'orders',
	'donations',
	'qr_codes',
	'users',
	'visit_hourly',
	'visitor_hourly',
	'visitor_daily',
	'scan_hourly',
	'rollup_state',
]

async function seed(pg: Sql, scale: Scale, now: Date) {
	const started = performance.now()
	const at = now.toISOString()
	// The cascade reaches profile_audit, whose trigger refuses a truncate: this throwaway database's bench may.
	await pg.unsafe('set session_replication_role = replica')
	await pg.unsafe(`truncate ${SEEDED_TABLES.join(', ')} restart identity cascade`)
	await pg.unsafe('set session_replication_role = default')
	const { codes, emails } = await seedOthers(pg, scale, at)
	await seedVisits(pg, scale.visits, at, scale.users, emails)
	await seedScans(pg, scale.scans, at, codes)
	const seeded = performance.now() - started
	const vacuumStarted = performance.now()
	await pg`vacuum analyze`
	const [rows] = await pg<
		[{ visits: string; scans: string }]
	>`select (select count(*) from visits) as visits, (select count(*) from qr_scans) as scans`
	console.log(
		`seeded ${count(rows.visits)} visits and ${count(rows.scans)} scans in ${(seeded / 1000).toFixed(1)} s; vacuum analyze ${seconds(vacuumStarted)}`,
	)
}

async function tableSizes(pg: Sql, tables: string[]) {
	const rows = await pg<Array<{ name: string; size: string }>>`
		select c.relname as name, pg_size_pretty(pg_total_relation_size(c.oid)) as size
		from pg_class c where c.relname in ${pg(tables)} and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc`
	return rows.map((row) => `${row.name} ${row.size}`).join(', ')
}

// ---------------------------------------------------------------- recording page views

const AGENTS = [
	(v: number) =>
		`Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${120 + (v % 12)}.0.${6000 + v}.${v % 200} Safari/537.36`,
	(v: number) =>
		`Mozilla/5.0 (iPhone; CPU iPhone OS 17_${v % 7} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 7} Mobile/15E${148 + v} Safari/604.1`,
	(v: number) =>
		`Mozilla/5.0 (Linux; Android ${10 + (v % 5)}; Pixel ${5 + (v % 4)}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${120 + (v % 12)}.0.${6000 + v}.${v % 200} Mobile Safari/537.36`,
	(v: number) =>
		`Mozilla/5.0 (iPad; CPU OS 16_${v % 7} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.${v % 7} Mobile/15E${148 + v} Safari/604.1`,
	(v: number) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:${115 + (v % 12)}.0) Gecko/20100101 Firefox/${115 + (v % 12)}.0`,
	(v: number) =>
		`Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${120 + (v % 12)}.0.0.0 Safari/537.36 Edg/${120 + (v % 12)}.0.${2000 + v}.${v % 100}`,
	(v: number) =>
		`Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S91${v % 10}B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/${20 + (v % 5)}.0 Chrome/${106 + (v % 10)}.0.0.0 Mobile Safari/537.36`,
	() => 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
	() => 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
	() => 'curl/8.5.0',
]
const VIEW_PATHS = [
	'/',
	'/shop',
	'/login',
	'/dashboard',
	'/scan/Ab3dE5gH7jK9mN1p',
	'/giving',
	'/medical',
	'/admin/orders/1234',
	'/about',
	'/faq',
]

/** Pre-built page views: many versions of the common browsers (a skewed few dominate), 5,000 addresses, a few bots. */
function pageViews(n: number, users: number, trackingIds: string[]) {
	let seed = 42
	const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
	const pick = <T>(list: T[], skew = 1) => list[Math.floor(list.length * random() ** skew)]!
	const agents = Array.from({ length: 2000 }, (_, i) => AGENTS[i % 7]!(Math.floor(i / 7)))
	const addresses = Array.from({ length: 5000 }, (_, i) =>
		i % 100 === 0
			? `10.83.${i % 256}.${(i * 7) % 256}`
			: i % 10 === 1
				? `2001:db8::${i.toString(16)}`
				: `${11 + (i % 200)}.${(i * 13) % 256}.${(i * 29) % 256}.${i % 254}`,
	)
	const day = new Date().toISOString().slice(0, 10)
	return Array.from({ length: n }, (_, i) => {
		const bot = random() < 0.05
		return {
			path: pick(VIEW_PATHS, 2),
			userAgent: bot ? pick(AGENTS.slice(7))(0) : pick(agents, 3),
			acceptLanguage: bot && random() < 0.5 ? null : 'en-US,en;q=0.9',
			address: pick(addresses),
			referrer: random() < 0.4 ? 'https://www.google.com/' : random() < 0.5 ? 'http://localhost:3000/shop' : null,
			seenCookie: random() < 0.8 ? day : null,
			userId: random() < 0.05 ? `bench-u${2 + Math.floor(random() * (users - 1))}` : null,
			isOwner: i % 100 === 0,
			emailTrackingId: trackingIds.length && random() < 0.01 ? pick(trackingIds) : null,
			ownHosts: ['localhost:3000'],
		}
	})
}

// ---------------------------------------------------------------- measuring

type Row = { endpoint: string; range: string; p50: number; p95: number; max: number; error?: string; run: () => Promise<unknown> }

/** p50, p95 and max in ms; a call that fails ends the endpoint's timing with its error (the others still run). */
async function timeCalls(run: () => Promise<unknown>) {
	const times: number[] = []
	try {
		for (let i = 0; i < WARMUPS; i++) await run()
		for (let i = 0; i < CALLS; i++) {
			const started = performance.now()
			await run()
			times.push(performance.now() - started)
		}
	} catch (error) {
		return { p50: Number.NaN, p95: Number.NaN, max: Number.NaN, error: failure(error) }
	}
	return { p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times) }
}

/** An error's message, with the database's own (drizzle's "Failed query" keeps it in `cause`). */
function failure(error: unknown) {
	const message = error instanceof Error ? error.message : String(error)
	return error instanceof Error && error.cause instanceof Error ? `${message}\n${error.cause.message}` : message
}

const settle = () => new Promise((done) => setTimeout(done, 200))

/**
 * Runs an endpoint once with auto_explain logging every statement's plan (EXPLAIN ANALYZE), then prints how many
 * statements it sent, their summed and longest server time, and the plans of the slowest EXPLAIN_TOP.
 */
async function explain(pg: Sql, log: string, row: Row) {
	const offset = statSync(log).size
	await pg`alter system set auto_explain.log_min_duration = 0`
	await pg`select pg_reload_conf()`
	await settle()
	const started = performance.now()
	await row.run()
	const wall = performance.now() - started
	await pg`alter system set auto_explain.log_min_duration = -1`
	await pg`select pg_reload_conf()`
	await settle()
	const plans = readFileSync(log)
		.subarray(offset)
		.toString('utf8')
		.split(/\n(?=\S[^\n]*LOG: {2}duration: )/)
		.filter((entry) => entry.includes('LOG:  duration: ') && entry.includes('plan:') && !entry.includes('pg_reload_conf'))
		.map((entry) => ({ ms: Number(/duration: ([\d.]+) ms/.exec(entry)?.[1] ?? 0), text: entry.trim() }))
		.sort((a, b) => b.ms - a.ms)
	const sum = plans.reduce((total, plan) => total + plan.ms, 0)
	console.log(
		`\n---- ${row.endpoint} ${row.range}: ${ms(wall)} ms with auto_explain; ${plans.length} statements, ${ms(sum)} ms of server time in all, the longest ${ms(plans[0]?.ms ?? 0)} ms ----`,
	)
	for (const plan of plans.slice(0, EXPLAIN_TOP)) console.log(`${plan.text}\n`)
}

async function runScale(scale: Scale, pg: Sql, server: Server) {
	const { db } = await import('#db/client.ts')
	const { analyticsOverview, filteredAnalytics, trafficAnalysis, scanAnalytics } = await import('#app/domain/analytics/analytics.server.ts')
	const { emailMessageStats } = await import('#app/domain/analytics/email-tracking.server.ts')
	const { rebuildHours, rolledUpUntil, rollUpAll, rollUpStep } = await import('#app/domain/analytics/rollup.server.ts')
	const { recordPageView, flushVisits } = await import('#app/domain/analytics/collect.server.ts')
	const { etDay, etDayBounds } = await import('#app/domain/analytics/et-time.ts')
	const { TIME_RANGES } = await import('#app/domain/admin/time-range.ts')
	const { FILTER_HOURS } = await import('#app/domain/analytics/params.ts')

	console.log(
		`\n================ ${scale.name}: ${count(scale.visits)} visits, ${count(scale.scans)} scans, ${count(scale.users)} users ================`,
	)
	const seededAt = new Date()
	await seed(pg, scale, seededAt)

	// The initial rollup stops an hour short, so that the job's recurring step below has the last closed hour to do.
	let started = performance.now()
	const hours = await rollUpAll(new Date(seededAt.getTime() - HOUR_MS))
	const rollUpAllMs = performance.now() - started
	const from = await rolledUpUntil()
	const [tail] = await pg<[{ visits: string; scans: string }]>`
		select (select count(*) from visits where visited_at >= ${from}) as visits, (select count(*) from qr_scans where scanned_at >= ${from}) as scans`
	started = performance.now()
	const step = await rollUpStep(new Date())
	const stepMs = performance.now() - started
	const stepHours = step ? (step.to.getTime() - step.from.getTime()) / HOUR_MS : 0
	const idle: number[] = []
	for (let i = 0; i < 5; i++) {
		started = performance.now()
		await rollUpStep(new Date())
		idle.push(performance.now() - started)
	}
	// Worst cases of the same step: the busiest hour of the year, and an hour that closes an ET day (visitor_daily too).
	const [busiest] = await pg<[{ hour: Date; views: number }]>`
		select hour, (visits + bot_visits)::int as views from visit_hourly where dimension = 'all' order by visits + bot_visits desc limit 1`
	const dayEnd = etDayBounds(etDay(new Date(seededAt.getTime() - 86_400_000))).end
	const rebuild = async (at: Date) => {
		const times: number[] = []
		for (let i = 0; i < 3; i++) {
			const t = performance.now()
			await db.transaction((tx) => rebuildHours(tx, at, new Date(at.getTime() + HOUR_MS)))
			times.push(performance.now() - t)
		}
		return percentile(times, 50)
	}
	const busiestMs = busiest ? await rebuild(busiest.hour) : Number.NaN
	const dayEndMs = await rebuild(new Date(dayEnd.getTime() - HOUR_MS))
	await pg`analyze`
	console.log(
		`\nrollup: initial rollUpAll ${(rollUpAllMs / 1000).toFixed(1)} s for ${count(hours)} hours (${Math.ceil(hours / 168)} steps of ≤ 1 week, ${ms(rollUpAllMs / Math.max(1, Math.ceil(hours / 168)))} ms a step)`,
	)
	console.log(
		`rollUpStep (the 30-second job): ${ms(stepMs)} ms for ${stepHours} closed hour(s) (${count(tail.visits)} visits, ${count(tail.scans)} scans since the mark); nothing to do: ${ms(percentile(idle, 50))} ms`,
	)
	console.log(
		`rebuildHours of one hour: the busiest (${count(busiest?.views ?? 0)} views) ${ms(busiestMs)} ms; the last of an ET day (+ visitor_daily) ${ms(dayEndMs)} ms`,
	)
	console.log(`sizes: ${await tableSizes(pg, ['visits', 'qr_scans', 'visit_hourly', 'visitor_hourly', 'visitor_daily', 'scan_hourly'])}`)

	// Reads at the real current time: after the rollup, the last one or two hours are read raw.
	const today = () => etDay(new Date())
	const monthAgo = etDay(new Date(Date.now() - 30 * 86_400_000))
	const plan: Array<Omit<Row, 'p50' | 'p95' | 'max'>> = [
		...TIME_RANGES.map((range) => ({ endpoint: 'analyticsOverview', range, run: () => analyticsOverview(range, new Date()) })),
		...FILTER_HOURS.map((h) => ({ endpoint: 'filteredAnalytics', range: `${h}h`, run: () => filteredAnalytics(h, new Date()) })),
		{ endpoint: 'trafficAnalysis', range: 'today', run: () => trafficAnalysis(today(), new Date()) },
		{ endpoint: 'trafficAnalysis', range: `${monthAgo} (30 days ago)`, run: () => trafficAnalysis(monthAgo, new Date()) },
		{ endpoint: 'scanAnalytics', range: 'all time + 30 days', run: () => scanAnalytics(new Date()) },
		{ endpoint: 'emailMessageStats', range: '-', run: () => emailMessageStats() },
	]
	const rows: Row[] = []
	for (const item of plan) rows.push({ ...item, ...(await timeCalls(item.run)) })
	const table = [['endpoint', 'range', 'p50 ms', 'p95 ms', 'max ms', '']]
	for (const row of rows)
		table.push(
			row.error
				? [row.endpoint, row.range, '-', '-', '-', 'FAILED']
				: [row.endpoint, row.range, ms(row.p50), ms(row.p95), ms(row.max), row.p95 > GOAL_P95_MS ? 'over' : ''],
		)
	console.log(`\n${CALLS} calls each after ${WARMUPS} warm-ups, one at a time (load average now ${load()}):\n`)
	console.log(kit.table(table, 2))
	const failed = rows.filter((row) => row.error)
	for (const row of failed) console.log(`\n${row.endpoint} ${row.range} FAILED: ${row.error}`)
	const timed = rows.filter((row) => !row.error)
	const worst = timed.length ? timed.reduce((a, b) => (b.p95 > a.p95 ? b : a)) : null
	console.log(
		`\np95 max: ${worst ? `${ms(worst.p95)} ms` : '-'} (goal ≤ ${GOAL_P95_MS} ms)${worst ? `: ${worst.endpoint} ${worst.range}` : ''}` +
			(failed.length ? `; ${failed.length} endpoint(s) FAILED` : ''),
	)

	// An endpoint over the goal (or each, with BENCH_EXPLAIN=all): once more with auto_explain, and its slowest statements.
	const explained = process.env.BENCH_EXPLAIN === 'all' ? timed : timed.filter((row) => row.p95 > GOAL_P95_MS)
	if (explained.length && server.log) for (const row of explained) await explain(pg, server.log, row)

	// Recording a page view: what each request pays in the app (classify, hash, queue), and the batched INSERT per row.
	const trackingIds = (await pg<Array<{ id: string }>>`select tracking_id as id from emails where status = 'sent' limit 200`).map(
		(r) => r.id,
	)
	const views = pageViews(RECORD_VIEWS, scale.users, trackingIds)
	await recordPageView(views[0]!) // creates (or reads) the day's salt, then it is cached
	await flushVisits()
	// Batches of 199: under the recorder's 200-row threshold, so no flush starts inside the timed calls; each batch is
	// then written by one flushVisits (the production batch size).
	const perCall: number[] = []
	let flushMs = 0
	let written = 0
	let recorded = 0
	for (let i = 1; i < views.length; i += 199) {
		const end = Math.min(views.length, i + 199)
		for (let j = i; j < end; j++) {
			const t = performance.now()
			if (await recordPageView(views[j]!)) recorded++
			perCall.push(performance.now() - t)
		}
		const t = performance.now()
		written += await flushVisits()
		flushMs += performance.now() - t
	}
	const mean = perCall.reduce((a, b) => a + b, 0) / perCall.length
	console.log(
		`\nrecordPageView: ${count(perCall.length)} calls (${count(recorded)} recorded), mean ${(mean * 1000).toFixed(1)} µs, p50 ${(percentile(perCall, 50) * 1000).toFixed(1)} µs, p99 ${(percentile(perCall, 99) * 1000).toFixed(1)} µs a call`,
	)
	console.log(
		`flushVisits: ${count(written)} rows in batches of ≤ 199, ${(flushMs / 1000).toFixed(2)} s, mean ${((flushMs * 1000) / Math.max(1, written)).toFixed(1)} µs a row`,
	)
	console.log(`per page view in all: ${(mean * 1000 + (flushMs * 1000) / Math.max(1, written)).toFixed(1)} µs`)

	return worst?.p95 ?? Number.NaN
}

async function main() {
	const list = scales()
	const work = kit.workFolder('hmh-bench-analytics-')
	const server = process.env.DATABASE_URL ? await useOwnDatabase(process.env.DATABASE_URL) : await startThrowawayPostgres()
	// Before any app module is imported: db/client.ts connects at import, env.server.ts reads the environment.
	Object.assign(process.env, {
		NODE_ENV: 'production',
		DATABASE_URL: server.url,
		SESSION_SECRET: 'bench-analytics',
		DATA_DIR: join(work, 'data'),
		PUBLIC_URL: 'http://localhost:3000',
		SMTP_URL: '',
		S3_BUCKET: '',
		SEED_DEMO: 'false',
	})
	const { db, closeDb } = await import('#db/client.ts')
	kit.onCleanup({ name: 'close the database', run: closeDb })
	const { prepareDatabase } = await import('#db/prepare.ts')
	;(await import('#app/utils/sealed-data.server.ts')).sealColumns()
	await prepareDatabase(db, { jobQueues: (await import('#app/jobs/queues.ts')).JOB_QUEUES })

	const pg = postgres(server.url, { max: 1, onnotice: () => {} })
	kit.onCleanup({ name: 'close the seeding connection', run: () => pg.end({ timeout: 5 }) })
	await pg`set work_mem = '256MB'`
	await pg`set maintenance_work_mem = '512MB'`
	const [{ version }] = await pg<[{ version: string }]>`select version()`
	console.log(`bench:analytics: scales ${list.map((s) => s.name).join(', ')}`)
	console.log(`machine: ${availableParallelism()} cores, load average ${load()}, Node ${process.version}`)
	console.log(`PostgreSQL: ${version.split(' on ')[0]}, ${server.description}`)

	const results: Array<[string, number]> = []
	for (const scale of list) {
		try {
			results.push([scale.name, await runScale(scale, pg, server)])
		} catch (error) {
			throw new Error(failure(error), { cause: error })
		}
	}
	if (results.length > 1)
		console.log(`\np95 max by scale: ${results.map(([name, p95]) => `${name} ${ms(p95)} ms`).join(', ')} (goal ≤ ${GOAL_P95_MS} ms)`)
	if (process.env.BENCH_KEEP) {
		console.log(`\nBENCH_KEEP: the database stays up at ${server.url} until Ctrl-C.`)
		await new Promise(() => setInterval(() => {}, 60_000))
	}
}

await kit.runBench('bench:analytics', main, { signalNote: 'stopping PostgreSQL and cleaning up…' })
