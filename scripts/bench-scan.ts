import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { get, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'
import autocannon, { type Result } from 'autocannon'
import * as kit from './bench-kit.ts'

/*
 * `npm run bench:scan`: a measurement, not a test. Serves the built app (server.ts) on PostgreSQL and, as a baseline,
 * a plain node:http server (scripts/bench-scan-plain.ts) doing the same database read, scan insert and gzip of the
 * same bytes; loads each in turn with autocannon and prints throughput, latency, the ratio and the page's gzip size.
 * Target: the app reaches at least 50% of the plain server's requests/s, with p99 at most 100 ms.
 *
 * Both servers are child processes, so the load generator never shares an event loop with the server under test.
 * PostgreSQL: DATABASE_URL when set (a database hmh_bench is created on it and dropped at the end); otherwise a
 * throwaway server from the Debian binaries on loopback, stopped and removed at the end, even on failure or Ctrl-C.
 *
 * Settings (environment): BENCH_PG_PORT (54400), BENCH_APP_PORT (3400), BENCH_PLAIN_PORT (3401),
 * BENCH_CONNECTIONS (50), BENCH_RATE (0: each connection sends as soon as it has its answer, which measures throughput;
 * N: N requests a second in all, which measures latency at a given load, e.g. with BENCH_DURING_BATCH), BENCH_WARMUP (3 s), BENCH_DURATION (10 s), PG_BIN (the newest /usr/lib/postgresql/N/bin),
 * BENCH_PLAIN_GZIP ('middleware', the default: the compression middleware as in server.ts; or 'sync': zlib.gzipSync),
 * BENCH_CPU_PROF (a folder: both servers run with --cpu-prof and write their profiles there; the main thread's file is
 * CPU.<date>.<time>.<pid>.0.<n>.cpuprofile, the pids are printed),
 * BENCH_DURING_BATCH (unset: scans only; 'pdf' or 'png': during the app's measured run, not its warm-up nor the plain
 * server's run, the owner makes batches of 1000 codes one after another, POST /api/admin/generate-qr-pdf or
 * generate-qr-batch (PNG ZIP), each body read in full: the p99 target then holds while a batch is generated. The app
 * gets a random ADMIN_TOKEN; the seeded account signs in through the page form and presents it. Any answer but 200 fails
 * the bench).
 *
 * BENCH_DURING_DOWNLOADS (unset, or 'lock-screen'): the app is measured twice at an open load (here by default 100
 * requests/s over 10 connections, for 60 s: one window of the heavy-download limit), idle and while the seeded account,
 * signed in, downloads its largest lock screen as fast as it is allowed: sixteen senders at once, in a process of their
 * own, each waiting the Retry-After of a 429 or 503 before it sends again. The plain server is not loaded. Target: the
 * responder page's p99 during the downloads at most 1.5 times the idle run's.
 *
 * CPU per request (Linux, from /proc): each server process (all its threads), the throwaway PostgreSQL (all its
 * processes) and this process (autocannon), over the measured run: where the time goes.
 */

const PG_PORT = kit.setting('BENCH_PG_PORT', 54400)
const APP_PORT = kit.setting('BENCH_APP_PORT', 3400)
const PLAIN_PORT = kit.setting('BENCH_PLAIN_PORT', 3401)
const CONNECTIONS = kit.setting('BENCH_CONNECTIONS', process.env.BENCH_DURING_DOWNLOADS ? 10 : 50)
/** Requests a second across all connections (an open load, as responders arrive); 0: as fast as the server answers. */
const RATE = process.env.BENCH_RATE ? kit.setting('BENCH_RATE', 1, { integer: true }) : process.env.BENCH_DURING_DOWNLOADS ? 100 : 0
const WARMUP_SECONDS = kit.setting('BENCH_WARMUP', 3)
const DURATION_SECONDS = kit.setting('BENCH_DURATION', process.env.BENCH_DURING_DOWNLOADS ? 60 : 10)
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null
const DURING_BATCH = duringBatch()
const DURING_DOWNLOADS = duringDownloads()
const DOWNLOAD_SENDERS = 16
const TARGET_DOWNLOADS_P99_RATIO = 1.5
const BATCH_CODES = 1000
const TARGET_RATIO = 0.5
const TARGET_P99_MS = 100
const BENCH_DATABASE = 'hmh_bench'

/** BENCH_DURING_BATCH: the batch format made during the app's measured run, or null. */
function duringBatch() {
	const value = process.env.BENCH_DURING_BATCH
	if (!value) return null
	if (value !== 'pdf' && value !== 'png') throw new Error(`BENCH_DURING_BATCH must be pdf or png (or unset), not ${JSON.stringify(value)}`)
	return value
}

/** BENCH_DURING_DOWNLOADS: whether the seeded account downloads lock screens during a second measured run. */
function duringDownloads() {
	const value = process.env.BENCH_DURING_DOWNLOADS
	if (!value) return false
	if (value !== 'lock-screen') throw new Error(`BENCH_DURING_DOWNLOADS must be lock-screen (or unset), not ${JSON.stringify(value)}`)
	return true
}

// ---------------------------------------------------------------- PostgreSQL

async function startThrowawayPostgres() {
	const options = '-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200'
	const { url, version, pid } = await kit.startThrowawayPostgres({ port: PG_PORT, prefix: 'hmh-bench-pg.', options })
	return { url, description: `throwaway ${version} on 127.0.0.1:${PG_PORT} (fsync off)`, pid }
}

/** A database of our own on the given server, dropped at the end. */
async function useOwnDatabase(databaseUrl: string) {
	const url = await kit.useGivenPostgres(databaseUrl, BENCH_DATABASE)
	return { url, description: `database ${BENCH_DATABASE} on ${new URL(url).host} (DATABASE_URL)`, pid: null }
}

// ---------------------------------------------------------------- seed: the app's own modules

const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'
/** The seeded account; with BENCH_DURING_BATCH it signs in and presents the admin token. */
/** A 3000 × 4000 phone photo with detail in it, so its JPEG is a few MB as a real one is. */
async function phonePhoto() {
	const { default: sharp } = await import('sharp')
	const detail = Buffer.alloc(300 * 400 * 3)
	for (let i = 0; i < detail.length; i++) detail[i] = (i * 2654435761) >>> 24
	const jpeg = await sharp(detail, { raw: { width: 300, height: 400, channels: 3 } })
		.resize(3000, 4000, { kernel: 'nearest' })
		.jpeg({ quality: 80 })
		.toBuffer()
	return new File([new Uint8Array(jpeg)], 'photo.jpg', { type: 'image/jpeg' })
}

const ACCOUNT = { username: 'bench', email: 'bench@example.com', password: 'Bench-password-1!' }

/** Migrates and seeds, then one person with a full profile and a claimed sticker linked to it; returns its token. */
async function seed() {
	return kit.withAppDatabase(
		async () => {
			const { createAccount } = await import('#app/domain/accounts/accounts.server.ts')
			const { savePersonalInfo, updateProfileFields } = await import('#app/domain/profiles/profiles.server.ts')
			const { addRow } = await import('#app/domain/profiles/sections.server.ts')
			const { saveDnr, savePolicy, uploadPicture } = await import('#app/domain/profiles/files.server.ts')
			const s = await import('#app/domain/profiles/schemas.ts')
			const { createStickerCodes } = await import('#app/domain/qr/codes.server.ts')
			const { claimCode } = await import('#app/domain/claims/claims.server.ts')

			const created = await createAccount(ACCOUNT)
			if (created.outcome !== 'created') throw new Error(`seeding: createAccount failed: ${JSON.stringify(created)}`)
			const { user } = created
			const { profile } = await savePersonalInfo(
				user.id,
				s.PersonalInfoSchema.parse({
					firstName: 'Maria',
					middleName: 'Elena',
					lastName: 'Santos',
					dateOfBirth: '1950-06-15',
					bloodType: 'AB-',
					gender: 'Female',
					phoneNumber: '+1 (555) 010-0100',
					height: '5 ft 4 in',
					weight: '140 lb',
					hairColor: 'Gray',
					eyeColor: 'Brown',
					distinguishingMarks: 'Scar on left knee',
					streetAddress: '12 Elm Street',
					city: 'Springfield',
					state: 'IL',
					zipCode: '62701',
				}),
			)
			const pid = profile.id
			await saveDnr(
				user.id,
				pid,
				s.DnrSchema.parse({ dnrStatus: 'DNR', dnrDocumentDate: '2024-02-01', dnrOriginalLocation: 'In an envelope on the refrigerator' }),
				new File([PDF], 'dnr.pdf', { type: 'application/pdf' }),
			)
			const allergies = [
				{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' },
				{ allergen: 'Latex', severity: 'Moderate', reaction: 'Hives and swelling' },
				{ allergen: 'Shellfish', severity: 'Mild', reaction: 'Itching' },
			]
			for (const row of allergies) await addRow(user.id, 'allergies', pid, s.AllergySchema.parse(row))
			const medications = [
				{ name: 'Warfarin', dosage: '5 mg', frequency: 'daily', prescribingDoctor: 'Dr. Patel' },
				{ name: 'Metoprolol', dosage: '25 mg', frequency: 'twice daily' },
				{ name: 'Atorvastatin', dosage: '40 mg', frequency: 'at night' },
				{ name: 'Levothyroxine', dosage: '75 mcg', frequency: 'every morning' },
			]
			for (const row of medications) await addRow(user.id, 'medications', pid, s.MedicationSchema.parse(row))
			const conditions = [
				{ condition: 'Atrial fibrillation', status: 'Chronic', diagnosedDate: '2015-03-10' },
				{ condition: 'Hypothyroidism', status: 'Managed' },
				{ condition: 'Pneumonia', status: 'Resolved', diagnosedDate: '2023-01-20', notes: 'Hospitalised for a week' },
			]
			for (const row of conditions) await addRow(user.id, 'conditions', pid, s.ConditionSchema.parse(row))
			const contacts = [
				{ name: 'Luis Santos', relationship: 'Son', phoneNumber: '+1 (555) 010-0200', email: 'luis@example.com' },
				{ name: 'Ana Santos', relationship: 'Daughter', phoneNumber: '+1 (555) 010-0300' },
			]
			for (const row of contacts) await addRow(user.id, 'contacts', pid, s.ContactSchema.parse(row))
			await savePolicy(
				user.id,
				pid,
				null,
				s.InsurancePolicySchema.parse({
					provider: 'Medicare',
					policyNumber: '1EG4-TE5-MK73',
					groupNumber: 'GRP-100',
					planType: 'PPO',
					providerPhone: '+1 (800) 633-4227',
				}),
				null,
			)
			const notes = s.NotesSchema.parse({
				additionalNotes: 'Hard of hearing: please speak up and face her.\nWears hearing aids in both ears.',
			})
			await updateProfileFields(user.id, pid, { additionalNotes: notes.additionalNotes ?? null })
			const photo = await phonePhoto()
			await uploadPicture(user.id, pid, photo)
			const [code] = await createStickerCodes(1)
			const claim = await claimCode({ userId: user.id, address: null }, code!.pin, { profileId: pid })
			return { token: claim.token, profileId: pid, photoBytes: photo.size }
		},
		{ cleanup: async () => (await import('#app/domain/render/pool.server.ts')).closeRenderWorkers() },
	)
}

// ---------------------------------------------------------------- servers

function startServer(name: string, script: string, port: number, env: NodeJS.ProcessEnv) {
	const args = ['--import', 'tsx', ...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []), script]
	return kit.start(`the ${name} server`, process.execPath, args, { ...env, PORT: String(port) })
}

// ---------------------------------------------------------------- measuring

type Page = { status: number; encoding: string | undefined; gzipBytes: number; html: string }

/** One request as a phone would send it; the raw (still compressed) bytes are counted. */
function fetchPage(port: number, path: string) {
	return new Promise<Page>((done, fail) => {
		const request = get({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'gzip' } }, (response) => {
			const chunks: Buffer[] = []
			response.on('data', (chunk: Buffer) => chunks.push(chunk))
			response.on('error', fail)
			response.on('end', () => {
				const raw = Buffer.concat(chunks)
				const encoding = response.headers['content-encoding']
				const html = (encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')
				done({ status: response.statusCode ?? 0, encoding, gzipBytes: raw.length, html })
			})
		})
		request.on('error', fail)
	})
}

// ---------------------------------------------------------------- BENCH_DURING_BATCH: the owner's batches

type Answer = { status: number; headers: IncomingHttpHeaders; bytes: number; head: Buffer }
const HEAD_BYTES = 2000

/**
 * One request on a connection of its own (no agent, so nothing is shared with autocannon's sockets, which count only
 * their own requests); the body is read to its end, only its length and first bytes are kept.
 */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
	return new Promise<Answer>((done, fail) => {
		const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }
		const request = httpRequest({ host: '127.0.0.1', port, method, path, headers: sent, agent: false }, (response) => {
			let bytes = 0
			const head: Buffer[] = []
			response.on('data', (chunk: Buffer) => {
				if (bytes < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - bytes))
				bytes += chunk.length
			})
			response.on('error', fail)
			response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, bytes, head: Buffer.concat(head) }))
		})
		request.on('error', fail)
		request.end(body)
	})
}

const cookieOf = (answer: Answer) =>
	[answer.headers['set-cookie'] ?? []]
		.flat()
		.map((c) => c.split(';')[0]!)
		.find((c) => c.startsWith('hmh_session=') && c.length > 'hmh_session='.length)

const shown = (answer: Answer) =>
	`${answer.status}: ${answer.head.toString('utf8')}${answer.bytes > answer.head.length ? ` … (${answer.bytes} bytes)` : ''}`

type Owner = { port: number; origin: string; cookie: string }

/**
 * The seeded account signs in through the page form (as a browser without JavaScript does) and presents the admin
 * token, which marks its server session: the session the batches are made with.
 */
async function ownerSession(port: number, origin: string, adminToken: string): Promise<Owner> {
	const signedIn = await signIn(port, origin)
	const json = { origin, cookie: signedIn, 'content-type': 'application/json', accept: 'application/json' }
	const validate = await send(port, 'POST', '/api/validate-admin-token', json, JSON.stringify({ token: adminToken }))
	const marked = cookieOf(validate)
	if (validate.status !== 200 || !validate.head.toString().includes('"valid":true') || !marked)
		throw new Error(`POST /api/validate-admin-token failed: ${shown(validate)}`)
	const owner = { port, origin, cookie: marked }
	const stats = await send(port, 'GET', '/api/admin/qr-stats', { origin, cookie: marked, accept: 'application/json' })
	if (stats.status !== 200) throw new Error(`The admin token did not open the owner area: GET /api/admin/qr-stats ${shown(stats)}`)
	return owner
}

/** The seeded account signs in through the page form, as a browser without JavaScript does; its session cookie. */
async function signIn(port: number, origin: string) {
	const answer = await send(
		port,
		'POST',
		'/login',
		{ origin, 'content-type': 'application/x-www-form-urlencoded' },
		new URLSearchParams({ email: ACCOUNT.email, password: ACCOUNT.password }).toString(),
	)
	const cookie = cookieOf(answer)
	if (answer.status !== 302 || !cookie) throw new Error(`Signing in as ${ACCOUNT.email} failed: ${shown(answer)}`)
	return cookie
}

// ---------------------------------------------------------------- BENCH_DURING_DOWNLOADS: lock screens, as fast as allowed

type Downloads = { statuses: Record<string, number>; bytes: number; madeMs: number[]; failure: string | null }

/**
 * The seeded account's downloads (scripts/bench-downloads.ts, a process of its own): DOWNLOAD_SENDERS senders of
 * GET …/lock-screen.png?w=1440 (the largest) until `stop`, which waits for their requests under way.
 */
function startDownloads(port: number, cookie: string, profileId: number) {
	const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-downloads.ts'], {
		cwd: kit.root,
		env: {
			...process.env,
			BENCH_DL_PORT: String(port),
			BENCH_DL_COOKIE: cookie,
			BENCH_DL_PATH: `/api/medical-profiles/${profileId}/lock-screen.png?w=1440`,
			BENCH_DL_SENDERS: String(DOWNLOAD_SENDERS),
		},
		stdio: ['pipe', 'pipe', 'inherit'],
	})
	let output = ''
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
	const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
	return {
		label: `while the account downloads lock screens (${DOWNLOAD_SENDERS} senders, another process)`,
		async stop() {
			child.stdin.end('stop\n')
			await exited
			const downloads = JSON.parse(output.trim().split('\n').at(-1) ?? 'null') as Downloads | null
			if (!downloads) throw new Error('The downloading process said nothing.')
			if (downloads.failure) throw new Error(downloads.failure)
			return downloads
		},
	}
}

/** An autocannon run's columns: requests a second, latency p50, p99 and max, non-2xx answers, errors and timeouts. */
function resultCells(r: Result) {
	return [
		r.requests.mean.toFixed(1),
		String(r.latency.p50),
		String(r.latency.p99),
		String(r.latency.max),
		String(r.non2xx),
		String(r.errors + r.timeouts),
	]
}

function reportDownloads(idle: Measured<never>, busy: Measured<Downloads>, page: Page) {
	const downloads = busy.batches!
	const row = (name: string, { result, cpuPerRequest, otherCpuPercent }: Measured<unknown>) => [
		name,
		...resultCells(result),
		cpuPerRequest.server == null ? 'n/a' : cpuPerRequest.server.toFixed(2),
		otherCpuPercent == null ? 'n/a' : `${otherCpuPercent.toFixed(0)} %`,
	]
	console.log(
		`\n/scan/{token} at ${RATE} requests/s in all over ${CONNECTIONS} connections, ${DURATION_SECONDS} s each after ${WARMUP_SECONDS} s warm-up`,
	)
	console.log(
		kit.table([
			['app', 'req/s (mean)', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'CPU ms/req: server', 'other processes'],
			row('idle', idle),
			row('while lock screens download', busy),
		]),
	)
	const statuses = Object.entries(downloads.statuses)
		.map(([status, n]) => `${n} × ${status}`)
		.join(', ')
	const made = [...downloads.madeMs].sort((a, b) => a - b)
	const median = made.length ? made[(made.length - 1) >> 1]! : null
	console.log(
		`downloads during the run: ${statuses || 'none'}; ${(downloads.bytes / 1e6).toFixed(1)} MB of PNG${median == null ? '' : `, each made in ${median.toFixed(0)} ms (median)`}`,
	)
	console.log(`page: ${page.gzipBytes} bytes gzip`)
	const ratio = busy.result.latency.p99 / Math.max(1, idle.result.latency.p99)
	const ok = ratio <= TARGET_DOWNLOADS_P99_RATIO && busy.result.non2xx + busy.result.errors + busy.result.timeouts === 0
	console.log(
		`responder p99 while downloading / idle: ${busy.result.latency.p99} / ${idle.result.latency.p99} ms = ${ratio.toFixed(2)}   target ≤ ${TARGET_DOWNLOADS_P99_RATIO}   ${ok ? 'PASS' : 'FAIL'}`,
	)
}

type Batches = {
	format: 'pdf' | 'png'
	/** Seconds each batch took that finished during the run. */
	seconds: number[]
	/** The batch under way when the run ended: awaited (so it does not overlap the next run), not counted. */
	late: { seconds: number; afterEnd: number } | null
	bytes: number
}

/**
 * Batches of 1000 codes, one after another (the next starts as soon as one has been read to its end), until `stop`;
 * stop waits for the batch under way. Any answer but a 200 with the format's file ends the loop and fails the bench.
 */
function startBatches(owner: Owner, format: 'pdf' | 'png') {
	const path = `/api/admin/generate-qr-${format === 'pdf' ? 'pdf' : 'batch'}`
	const magic = format === 'pdf' ? '%PDF-' : 'PK'
	const headers = { origin: owner.origin, cookie: owner.cookie, 'content-type': 'application/json', accept: 'application/json' }
	const body = JSON.stringify({ count: BATCH_CODES })
	const batches: Batches = { format, seconds: [], late: null, bytes: 0 }
	let running = true
	let endedAt = 0
	let failure: string | null = null
	const loop = (async () => {
		while (running) {
			const started = performance.now()
			let answer: Answer
			try {
				answer = await send(owner.port, 'POST', path, headers, body)
			} catch (error) {
				failure = `POST ${path} failed: ${error instanceof Error ? error.message : String(error)}`
				return
			}
			const finished = performance.now()
			if (answer.status !== 200 || !answer.head.toString('latin1').startsWith(magic)) {
				failure = `POST ${path} {"count":${BATCH_CODES}} answered ${shown(answer)}`
				return
			}
			const seconds = (finished - started) / 1000
			batches.bytes = answer.bytes
			if (running) batches.seconds.push(seconds)
			else batches.late = { seconds, afterEnd: (finished - endedAt) / 1000 }
		}
	})()
	return {
		label: `with batches of ${BATCH_CODES} codes`,
		async stop() {
			running = false
			endedAt = performance.now()
			await loop
			if (failure) throw new Error(failure)
			return batches
		},
	}
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

/** [pid, ppid, ms of user + system CPU] from /proc; with `children`, also its exited children's (PostgreSQL's backends). */
function procStat(pid: number | string, children = false): [number, number, number] | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
		const field = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
		const at = (n: number) => Number(field[n - 3]) // field 3 (state) is the first after the command name
		const ticks = at(14) + at(15) + (children ? at(16) + at(17) : 0)
		return [Number(pid), at(4), (ticks * 1000) / CLOCK_TICKS]
	} catch {
		return null
	}
}

/** CPU ms so far of the postmaster and its live and exited children. */
function postgresCpu(postmaster: number) {
	const own = procStat(postmaster, true)
	if (!own) return null
	let total = own[2]
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		const stat = procStat(entry)
		if (stat && stat[1] === postmaster) total += stat[2]
	}
	return total
}

/**
 * CPU ms so far of every process on the machine (user + system; interrupts, mostly our own loopback traffic, left out)
 * and the time a hypervisor stole from this virtual machine.
 */
function machineCpu() {
	try {
		const [user = 0, nice = 0, system = 0, , , , , steal = 0] = readFileSync('/proc/stat', 'utf8')
			.split('\n')[0]!
			.trim()
			.split(/\s+/)
			.slice(1)
			.map(Number)
		return { processes: ((user + nice + system) * 1000) / CLOCK_TICKS, steal: (steal * 1000) / CLOCK_TICKS }
	} catch {
		return null
	}
}

type Cpu = { server: number | null; postgres: number | null; bench: number; machine: ReturnType<typeof machineCpu>; at: number }
function cpuNow(server: kit.Child, postmaster: number | null): Cpu {
	const usage = process.cpuUsage()
	return {
		server: server.child.pid ? (procStat(server.child.pid)?.[2] ?? null) : null,
		postgres: postmaster ? postgresCpu(postmaster) : null,
		bench: (usage.user + usage.system) / 1000,
		machine: machineCpu(),
		at: performance.now(),
	}
}

/**
 * CPU per request of each part, and what everything else on the machine used meanwhile, in % of one core: another
 * job (a CI run, a build) competing for the cores makes the figures unreliable.
 */
type Measured<T = Batches> = {
	result: Result
	/** With BENCH_DURING_BATCH, the app's run: the batches made during it (or, with BENCH_DURING_DOWNLOADS, the downloads). */
	batches?: T
	cpuPerRequest: { server: number | null; postgres: number | null; bench: number }
	otherCpuPercent: number | null
	stealPercent: number | null
}

async function load<T = Batches>(
	name: string,
	server: kit.Child,
	url: string,
	postmaster: number | null,
	during?: () => { stop: () => Promise<T>; label: string },
): Promise<Measured<T>> {
	const options = { url, connections: CONNECTIONS, headers: { 'accept-encoding': 'gzip' }, ...(RATE ? { overallRate: RATE } : {}) }
	process.stdout.write(`  ${name}: warm-up ${WARMUP_SECONDS} s… `)
	await autocannon({ ...options, duration: WARMUP_SECONDS })
	const before = cpuNow(server, postmaster)
	const meanwhile = during?.()
	process.stdout.write(`measuring ${DURATION_SECONDS} s${meanwhile ? ` ${meanwhile.label}` : ''}… `)
	const result = await autocannon({ ...options, duration: DURATION_SECONDS })
	const after = cpuNow(server, postmaster)
	const batches = await meanwhile?.stop().catch((error: unknown) => {
		const exit = server.exited()
		throw exit ? new Error(kit.failure(server, `${server.name} ${exit} during the run.`)) : error
	})
	const exit = server.exited()
	if (exit) throw new Error(kit.failure(server, `${server.name} ${exit} during the run.`))
	const done = batches as Partial<Batches> | undefined
	console.log(`${Math.round(result.requests.mean)} req/s${done?.seconds ? `, ${done.seconds.length} batches` : ''}`)
	const n = Math.max(1, result.requests.total)
	const per = (a: number | null, b: number | null) => (a == null || b == null ? null : (b - a) / n)
	const ours = [after.server, after.postgres, after.bench].map(
		(value, i) => (value ?? 0) - ([before.server, before.postgres, before.bench][i] ?? 0),
	)
	const elapsed = after.at - before.at
	const machine =
		after.machine && before.machine
			? { processes: after.machine.processes - before.machine.processes, steal: after.machine.steal - before.machine.steal }
			: null
	return {
		result,
		batches,
		cpuPerRequest: {
			server: per(before.server, after.server),
			postgres: per(before.postgres, after.postgres),
			bench: (after.bench - before.bench) / n,
		},
		otherCpuPercent: machine ? Math.max(0, ((machine.processes - ours.reduce((a, b) => a + b, 0)) / elapsed) * 100) : null,
		stealPercent: machine ? (machine.steal / elapsed) * 100 : null,
	}
}

// ---------------------------------------------------------------- report

function report(measured: { app: Measured; plain: Measured }, page: Page, plainPage: Page, plainGzip: string, ownPostgres: boolean) {
	const results = { app: measured.app.result, plain: measured.plain.result }
	const ms = (value: number | null) => (value == null ? 'n/a' : value.toFixed(2))
	const percent = (value: number | null) => (value == null ? 'n/a' : `${value.toFixed(0)} %`)
	const row = (name: string, r: Result, { cpuPerRequest: cpu, otherCpuPercent, stealPercent }: Measured) => [
		name,
		...resultCells(r),
		String(r.requests.total),
		ms(cpu.server),
		ms(cpu.postgres),
		ms(cpu.bench),
		percent(otherCpuPercent),
		percent(stealPercent),
	]
	const batches = measured.app.batches
	const ratio = results.app.requests.mean / results.plain.requests.mean
	const ratioOk = ratio >= TARGET_RATIO
	const p99Ok = results.app.latency.p99 <= TARGET_P99_MS
	const clean = results.app.non2xx + results.app.errors + results.app.timeouts === 0
	const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
	const formatName = batches?.format === 'png' ? 'PNG ZIP' : 'PDF'
	console.log(
		`\n/scan/{token}, ${CONNECTIONS} connections${RATE ? ` at ${RATE} requests/s in all` : ''}, accept-encoding: gzip, ${DURATION_SECONDS} s each after ${WARMUP_SECONDS} s warm-up` +
			(batches ? `; the app's measured run with batches of ${BATCH_CODES} codes as ${formatName} one after another` : ''),
	)
	console.log(
		kit.table([
			[
				'target',
				'req/s (mean)',
				'p50 ms',
				'p99 ms',
				'max ms',
				'non-2xx',
				'errors',
				'requests',
				'CPU ms/req: server',
				'PostgreSQL',
				'autocannon',
				'other processes',
				'steal',
			],
			row(`app (React Router, server.ts)${batches ? ` + ${formatName} batches` : ''}`, results.app, measured.app),
			row(`plain node:http (gzip: ${plainGzip})`, results.plain, measured.plain),
		]),
	)
	console.log('CPU ms/req: the server process (all threads), PostgreSQL (all its processes; n/a with DATABASE_URL), autocannon (this')
	console.log('process). Other processes: CPU the rest of the machine used meanwhile; steal: CPU the hypervisor took; % of one core.')
	if (!ownPostgres) console.log('With DATABASE_URL, a PostgreSQL on this machine counts among the other processes.')
	if (batches) console.log("The app's server CPU includes its batch worker threads; its warm-up and the plain server ran no batches.")
	const other = Math.max(measured.app.otherCpuPercent ?? 0, measured.plain.otherCpuPercent ?? 0)
	const steal = Math.max(measured.app.stealPercent ?? 0, measured.plain.stealPercent ?? 0)
	if (other > 20 || steal > 20)
		console.log(
			`WARNING: other processes used up to ${other.toFixed(0)} % and the hypervisor stole up to ${steal.toFixed(0)} % of a core: these figures are not reliable; run again on an idle machine.`,
		)
	console.log(
		`\npage: ${page.gzipBytes} bytes gzip (${Buffer.byteLength(page.html)} bytes HTML) from the app; ${plainPage.gzipBytes} bytes gzip from the plain server`,
	)
	if (batches) {
		const sorted = [...batches.seconds].sort((a, b) => a - b)
		const median = sorted.length ? (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2 : null
		const each =
			median == null
				? 'none finished'
				: `each ${[sorted[0]!, median, sorted.at(-1)!].map((v) => v.toFixed(1)).join('/')} s (min/median/max)`
		const late = batches.late
			? `; one more, under way when the run ended, took ${batches.late.seconds.toFixed(1)} s (${batches.late.afterEnd.toFixed(1)} s of it after the run; not counted)`
			: ''
		const size = batches.bytes ? ` (${(batches.bytes / 1e6).toFixed(1)} MB)` : ''
		console.log(
			`during the run: ${batches.seconds.length} batches of ${BATCH_CODES} codes as ${formatName}${size}, ${each}${late}; scan p99 ${results.app.latency.p99} ms (target ≤ ${TARGET_P99_MS} ms)`,
		)
	}
	// With batches, the app shares the cores with its batch workers and the plain server does not: the ratio is shown,
	// but the target of that run is its p99.
	const ratioCounts = !batches
	console.log(
		`ratio app/plain: ${(ratio * 100).toFixed(1)} %   target ≥ ${TARGET_RATIO * 100} %   ${ratioCounts ? verdict(ratioOk) : '(not a target while batches run: the plain server makes none)'}`,
	)
	console.log(
		`app p99${batches ? ' during the batches' : ''}: ${results.app.latency.p99} ms   target ≤ ${TARGET_P99_MS} ms   ${verdict(p99Ok)}`,
	)
	if (!clean)
		console.log(`app answered ${results.app.non2xx} non-2xx and had ${results.app.errors + results.app.timeouts} errors/timeouts: FAIL`)
	console.log(`overall: ${verdict((ratioOk || !ratioCounts) && p99Ok && clean)}`)
}

// ---------------------------------------------------------------- main

async function main() {
	if (!existsSync(join(kit.root, 'build/server/index.js')))
		throw new Error('No build: run `npm run build` first (npm run bench:scan does).')
	const work = kit.workFolder('hmh-bench.')
	await kit.assertPortFree(APP_PORT, 'BENCH_APP_PORT')
	await kit.assertPortFree(PLAIN_PORT, 'BENCH_PLAIN_PORT')

	const database = process.env.DATABASE_URL ? await useOwnDatabase(process.env.DATABASE_URL) : await startThrowawayPostgres()
	// The app's configuration for this process (seeding) and both servers. No SMTP or S3: mail goes to the outbox table.
	const env: NodeJS.ProcessEnv = {
		...process.env,
		...kit.loopbackServerEnv({ work, port: APP_PORT, sessionSecret: 'bench', publicUrl: `http://localhost:${APP_PORT}` }),
		DATABASE_URL: database.url,
	}
	Object.assign(process.env, env)
	// Only the app knows the admin token; it is presented as the owner would, through /api/validate-admin-token.
	const adminToken = DURING_BATCH ? randomBytes(32).toString('base64url') : null
	const appEnv = adminToken ? { ...env, ADMIN_TOKEN: adminToken } : env

	const { token, profileId, photoBytes } = await seed()
	const path = `/scan/${token}`
	const plainGzip = process.env.BENCH_PLAIN_GZIP === 'sync' ? 'zlib.gzipSync' : 'compression middleware'

	const app = startServer('app', 'server.ts', APP_PORT, appEnv)
	const plain = startServer('plain', 'scripts/bench-scan-plain.ts', PLAIN_PORT, env)
	await Promise.all([kit.waitUntilListening(app, APP_PORT), kit.waitUntilListening(plain, PLAIN_PORT)])

	const page = await fetchPage(APP_PORT, path)
	const plainPage = await fetchPage(PLAIN_PORT, path)
	if (page.status !== 200 || !page.html.includes('Warfarin'))
		throw new Error(kit.failure(app, `The app did not render the responder page (status ${page.status}).`))
	if (page.encoding !== 'gzip' || plainPage.encoding !== 'gzip')
		throw new Error(`Expected gzip from both servers; got ${page.encoding} (app) and ${plainPage.encoding} (plain).`)
	if (plainPage.html !== page.html) throw new Error('The plain server sent other HTML than the app: the comparison would not be fair.')
	// The origin of the address requested, as a browser sends it (React Router refuses an action whose origin is not the host).
	const owner = adminToken ? await ownerSession(APP_PORT, `http://127.0.0.1:${APP_PORT}`, adminToken) : null

	console.log(`\nPostgreSQL: ${database.description}`)
	console.log(`Node ${process.version}, ${availableParallelism()} CPUs; autocannon in this process, each server in its own process`)
	console.log(`Both servers send the same ${Buffer.byteLength(page.html)} bytes of HTML for ${path.slice(0, 12)}…`)
	const photo = await send(APP_PORT, 'GET', `${path}/photo`, { accept: 'image/avif,image/webp,*/*', 'accept-encoding': 'gzip' })
	if (photo.status !== 200) throw new Error(kit.failure(app, `The app did not send the responder page's photo (status ${photo.status}).`))
	console.log(
		`The photo, uploaded as ${(photoBytes / 1e6).toFixed(1)} MB (3000 × 4000 JPEG), reaches the responder as ${photo.bytes} bytes of ${photo.headers['content-type']}: page and photo ${page.gzipBytes + photo.bytes} bytes on the wire (target under 25000)\n`,
	)
	if (DURING_DOWNLOADS) {
		const cookie = await signIn(APP_PORT, `http://127.0.0.1:${APP_PORT}`)
		const url = `http://127.0.0.1:${APP_PORT}${path}`
		const idle = await load<never>('app, idle', app, url, database.pid)
		const busy = await load('app', app, url, database.pid, () => startDownloads(APP_PORT, cookie, profileId))
		reportDownloads(idle, busy, page)
		return
	}
	const results = {
		app: await load(
			'app',
			app,
			`http://127.0.0.1:${APP_PORT}${path}`,
			database.pid,
			owner && DURING_BATCH ? () => startBatches(owner, DURING_BATCH) : undefined,
		),
		plain: await load('plain', plain, `http://127.0.0.1:${PLAIN_PORT}${path}`, database.pid),
	}
	report(results, page, plainPage, plainGzip, database.pid != null)
	if (CPU_PROF_DIR)
		console.log(`\nCPU profiles (written when the servers stop): ${CPU_PROF_DIR}, app pid ${app.child.pid}, plain pid ${plain.child.pid}`)
}

await kit.runBench('bench:scan', main, { signalNote: 'stopping the servers and cleaning up…' })
