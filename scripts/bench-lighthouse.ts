import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { chromium } from '@playwright/test'
import lighthouse from 'lighthouse'
import * as kit from './bench-kit.ts'

/*
 * `npm run bench:lighthouse`: a measurement, not a test. Serves the built app (building first when app/ is newer than
 * the build) on a throwaway embedded database in a temporary DATA_DIR, or on a database of its own created on
 * DATABASE_URL's server; seeds a person with consents, a medical profile, a claimed sticker and a cart line, signs them
 * in over HTTP (a second session also presents the admin token), and runs Lighthouse (performance only, its default
 * mobile preset with simulated slow 4G) on the public pages, the dashboard's tabs, checkout (/cart), request products
 * and the admin overview, several times each. Prints the median run per page: performance score, first contentful
 * paint, largest contentful paint, total blocking time (and speed index, layout shift). Target: performance ≥ 98 and
 * first contentful paint ≤ 1.5 s on every page.
 *
 * The session goes into Chromium's cookie jar before each run (and the jar is emptied before a signed-out one): Lighthouse
 * never clears cookies, and a cookie the app sets (the first-visit one) would otherwise be sent instead of a session
 * given as an extra header, so the signed-in pages ended on the sign-in page.
 *
 * Settings (environment): BENCH_APP_PORT (3410), BENCH_RUNS (3 per page), CHROMIUM_PATH (/usr/bin/chromium).
 */

const APP_PORT = kit.setting('BENCH_APP_PORT', 3410, { integer: true })
const RUNS = kit.setting('BENCH_RUNS', 3, { integer: true })
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROME_FLAGS = [
	'--headless=new',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
]
const BENCH_DATABASE = 'hmh_lighthouse'
const ORIGIN = `http://localhost:${APP_PORT}`
const PERSON = { username: 'lighthouse', email: 'lighthouse@example.com', password: 'Bench-password-1!' }
const ADMIN_TOKEN = randomBytes(24).toString('base64url')
const TARGET = { score: 98, fcpMs: 1500 }

type As = 'visitor' | 'person' | 'admin'
const PAGES: Array<{ name: string; path: string; as: As }> = [
	{ name: 'landing', path: '/', as: 'visitor' },
	{ name: 'shop', path: '/shop', as: 'visitor' },
	{ name: 'pricing', path: '/pricing', as: 'visitor' },
	{ name: 'donate', path: '/donate', as: 'visitor' },
	{ name: 'request a QR code', path: '/request-qr', as: 'visitor' },
	{ name: 'order tracking', path: '/order-tracking', as: 'visitor' },
	{ name: 'team', path: '/team', as: 'visitor' },
	{ name: 'dashboard: medical info', path: '/dashboard', as: 'person' },
	{ name: 'dashboard: QR codes', path: '/dashboard/qr-codes', as: 'person' },
	{ name: 'dashboard: profile', path: '/dashboard/profile', as: 'person' },
	{ name: 'checkout', path: '/cart', as: 'person' },
	{ name: 'request products', path: '/request-products', as: 'person' },
	{ name: 'admin overview', path: '/admin', as: 'admin' },
]

// ---------------------------------------------------------------- build, database, seed

function newestMtime(dir: string): number {
	let newest = 0
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name)
		newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
	}
	return newest
}

function buildIfNeeded() {
	const built = join(kit.root, 'build/server/index.js')
	const sources = Math.max(
		newestMtime(join(kit.root, 'app')),
		newestMtime(join(kit.root, 'public')),
		statSync(join(kit.root, 'vite.config.ts')).mtimeMs,
	)
	if (existsSync(built) && statSync(built).mtimeMs >= sources) return
	console.log('Building (app/ is newer than build/)…')
	const build = spawnSync('npx', ['react-router', 'build'], { cwd: kit.root, stdio: ['ignore', 'ignore', 'inherit'] })
	if (build.status !== 0) throw new Error('npm run build failed')
}

/** Through the app's own modules, before the server holds the database: the person, their consents, profile and cart. */
async function seed() {
	return kit.withAppDatabase(async () => {
		const { createAccount } = await import('#app/domain/accounts/accounts.server.ts')
		const { recordAllCurrentConsents } = await import('#app/domain/consent/consent.server.ts')
		const { savePersonalInfo } = await import('#app/domain/profiles/profiles.server.ts')
		const { addRow } = await import('#app/domain/profiles/sections.server.ts')
		const s = await import('#app/domain/profiles/schemas.ts')
		const { listProducts, storeUserCart } = await import('#app/domain/shop/cart.server.ts')
		const { createStickerCodes } = await import('#app/domain/qr/codes.server.ts')
		const { claimCode } = await import('#app/domain/claims/claims.server.ts')
		const { CartItemSchema } = await import('#app/domain/shop/cart.ts')
		const created = await createAccount(PERSON)
		if (created.outcome !== 'created') throw new Error(`seeding: createAccount failed: ${JSON.stringify(created)}`)
		const userId = created.user.id
		await recordAllCurrentConsents(userId, { ipAddress: null, userAgent: 'bench:lighthouse' })
		const { profile } = await savePersonalInfo(
			userId,
			s.PersonalInfoSchema.parse({
				firstName: 'Maria',
				lastName: 'Santos',
				dateOfBirth: '1950-06-15',
				bloodType: 'AB-',
				city: 'Springfield',
				state: 'IL',
			}),
		)
		await addRow(
			userId,
			'allergies',
			profile.id,
			s.AllergySchema.parse({ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' }),
		)
		await addRow(userId, 'medications', profile.id, s.MedicationSchema.parse({ name: 'Warfarin', dosage: '5 mg', frequency: 'daily' }))
		await addRow(
			userId,
			'contacts',
			profile.id,
			s.ContactSchema.parse({ name: 'Luis Santos', relationship: 'Son', phoneNumber: '+1 (555) 010-0200' }),
		)
		const [sticker] = await createStickerCodes(1)
		await claimCode({ userId, address: null }, sticker!.pin, { profileId: profile.id })
		const [product] = await listProducts('shop')
		if (!product) throw new Error('seeding: the catalogue is empty')
		await storeUserCart(userId, [CartItemSchema.parse({ productId: product.id, quantity: 2 })])
	})
}

// ---------------------------------------------------------------- signing in

const cookiesOf = (response: Response) =>
	response.headers
		.getSetCookie()
		.map((c) => c.split(';')[0]!)
		.filter((c) => !c.endsWith('='))

/** Name=value pairs, the later of two with one name winning. */
const mergeCookies = (...lists: string[][]) => [...new Map(lists.flat().map((c) => [c.slice(0, c.indexOf('=')), c])).values()].join('; ')

/** Signs the seeded person in as a browser would (the login form) and returns the session cookie. */
async function signIn() {
	const response = await fetch(`${ORIGIN}/login`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ email: PERSON.email, password: PERSON.password }),
	})
	const cookie = mergeCookies(cookiesOf(response))
	if (response.status !== 302 || !cookie) throw new Error(`Signing in failed: ${response.status} ${await response.text()}`)
	const dashboard = await fetch(`${ORIGIN}/dashboard`, { headers: { cookie }, redirect: 'manual' })
	if (dashboard.status !== 200)
		throw new Error(`The signed-in dashboard answered ${dashboard.status} (${dashboard.headers.get('location')})`)
	return cookie
}

/** Another sign-in of the person whose session presents the admin token, as /owner-panel's call does. */
async function signInAsAdmin() {
	const signedIn = await signIn()
	const response = await fetch(`${ORIGIN}/api/validate-admin-token`, {
		method: 'POST',
		headers: { cookie: signedIn, origin: ORIGIN, 'content-type': 'application/json' },
		body: JSON.stringify({ token: ADMIN_TOKEN }),
	})
	const body = await response.text()
	if (response.status !== 200 || !body.includes('"valid":true')) throw new Error(`The admin token was refused: ${response.status} ${body}`)
	const cookie = mergeCookies(signedIn.split('; '), cookiesOf(response))
	const admin = await fetch(`${ORIGIN}/admin`, { headers: { cookie }, redirect: 'manual' })
	if (admin.status !== 200) throw new Error(`The admin overview answered ${admin.status} (${admin.headers.get('location')})`)
	return cookie
}

/**
 * Puts exactly these cookies in the browser's jar (none for a visitor), through a connection that is closed again
 * before Lighthouse runs.
 */
async function useCookies(cdpPort: number, cookie: string | null) {
	const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`)
	try {
		const context = browser.contexts()[0]
		if (!context) throw new Error('Chromium has no default browser context')
		await context.clearCookies()
		if (!cookie) return
		const pairs = cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) }))
		await context.addCookies(pairs.map((pair) => ({ ...pair, url: ORIGIN })))
	} finally {
		await browser.close()
	}
}

// ---------------------------------------------------------------- measuring

type Run = { score: number; fcp: number; lcp: number; tbt: number; si: number; cls: number }

// Lighthouse's own trace recording sometimes fails on a busy machine (NO_NAVSTART, NO_FCP…): that run is tried again.
const ATTEMPTS = 3

async function audit(port: number, url: string, cookie: string | null): Promise<Run> {
	let lhr
	for (let attempt = 1; ; attempt++) {
		await useCookies(port, cookie)
		const result = await lighthouse(url, { port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] })
		lhr = result?.lhr
		if (lhr && !lhr.runtimeError) break
		const reason = lhr?.runtimeError ? `${lhr.runtimeError.message} (${lhr.runtimeError.code})` : 'no result'
		if (attempt === ATTEMPTS) throw new Error(`Lighthouse failed on ${url} ${ATTEMPTS} times: ${reason}`)
		console.error(`\nLighthouse failed on ${url} (${reason}); trying again`)
	}
	if (lhr.finalDisplayedUrl !== url) throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl} instead of ${url}: a redirect`)
	const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
	return {
		score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
		fcp: metric('first-contentful-paint'),
		lcp: metric('largest-contentful-paint'),
		tbt: metric('total-blocking-time'),
		si: metric('speed-index'),
		cls: metric('cumulative-layout-shift'),
	}
}

// ---------------------------------------------------------------- main

async function main() {
	buildIfNeeded()
	await kit.assertPortFree(APP_PORT, 'BENCH_APP_PORT')
	const work = kit.workFolder('hmh-lighthouse.')

	const databaseUrl = process.env.DATABASE_URL ? await kit.useGivenPostgres(process.env.DATABASE_URL, BENCH_DATABASE) : null
	// This process (seeding) and the server share one configuration: production, nothing outside the machine.
	for (const key of ['DATABASE_URL', 'PGLITE_DIR']) delete process.env[key]
	Object.assign(process.env, {
		...kit.loopbackServerEnv({ work, port: APP_PORT, sessionSecret: 'bench-lighthouse', publicUrl: ORIGIN }),
		...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
		ADMIN_TOKEN,
	})
	await seed()

	const app = kit.start('the app', process.execPath, ['--import', 'tsx', 'server.ts'], process.env)
	await kit.waitUntilListening(app, APP_PORT)
	const cookies: Record<As, string | null> = { visitor: null, person: await signIn(), admin: await signInAsAdmin() }

	const profile = join(work, 'chromium')
	const chrome = kit.start(
		'Chromium',
		CHROMIUM,
		[...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
		process.env,
	)
	const port = await kit.waitFor(chrome, () => {
		const line = chrome.output.find((l) => l.includes('DevTools listening on ws://'))
		return line ? Number(/:(\d+)\//.exec(line)?.[1]) : null
	})

	console.log(
		`\nLighthouse ${RUNS}× per page: performance only, mobile preset, simulated slow 4G; ${databaseUrl ? `database ${BENCH_DATABASE} on DATABASE_URL's server` : 'embedded database'}`,
	)
	const rows = [['page', 'path', 'score', 'FCP', 'LCP', 'TBT', 'SI', 'CLS', 'scores of the runs']]
	let met = true
	for (const page of PAGES) {
		const runs: Run[] = []
		for (let i = 0; i < RUNS; i++) runs.push(await audit(port, `${ORIGIN}${page.path}`, cookies[page.as]))
		const median = [...runs].sort((a, b) => a.score - b.score || b.fcp - a.fcp)[Math.floor(runs.length / 2)]!
		met &&= median.score >= TARGET.score && median.fcp <= TARGET.fcpMs
		const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
		rows.push([
			page.name,
			page.path,
			String(median.score),
			s(median.fcp),
			s(median.lcp),
			`${Math.round(median.tbt)} ms`,
			s(median.si),
			median.cls.toFixed(3),
			runs.map((r) => r.score).join(' '),
		])
		process.stdout.write('.')
	}
	console.log(`\n\n${kit.table(rows, 2)}`)
	console.log(
		`\nmedian run per page (by score); target: score ≥ ${TARGET.score} and FCP ≤ ${TARGET.fcpMs / 1000} s on every page: ${met ? 'MET' : 'NOT MET'}`,
	)
}

await kit.runBench('bench:lighthouse', main)
