import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { execFileSync, spawnSync } from 'node:child_process'
import postgres from 'postgres'
import S3rver from 's3rver'
import sharp from 'sharp'
import * as kit from './bench-kit.ts'
import { PASSWORD } from './load-seed.ts'

/*
 * `npm run test:instances`: the production install (the checkout's tracked files, its build and its node_modules with
 * the dev dependencies pruned, as `npm ci && npm run build && npm prune --omit=dev` leaves them) run as two instances
 * behind HAProxy (Debian's, with deploy/haproxy.cfg) on one PostgreSQL and one S3 store (s3rver), as a deployment would:
 * - both instances start at once on an empty database, and both come up;
 * - a session made on one is honoured by the other, a file uploaded through one is served by the other, medical data
 *   sealed by one is read by the other;
 * - under a steady load of scans, sign-ins and profile saves through the proxy, a rolling restart (instance 1 SIGTERM,
 *   back up, then instance 2) fails no request and loses no save;
 * - every e-mail the scans caused is delivered once, by one instance or the other.
 * Clients connect from 127.0.0.4 and 127.0.0.5; the instances listen on 127.0.0.2 and 127.0.0.3, the proxy on 127.0.0.1.
 * Ports: INSTANCES_PG_PORT (54360, when DATABASE_URL is not set), INSTANCES_PORT (3260: the proxy; the instances the
 * two after it).
 */

const PG_PORT = kit.setting('INSTANCES_PG_PORT', 54360, { integer: true })
const PROXY_PORT = kit.setting('INSTANCES_PORT', 3260, { integer: true })
const LOAD_CLIENTS = 6
const SHUTDOWN_DELAY_MS = 2500
const PEOPLE = 6

type Instance = { name: string; host: string; port: number; dataDir: string; child: kit.Child | null }
type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** One HTTP request from a loopback address of the clients' own, over a keep-alive agent. */
function client(localAddress: string) {
	const agent = new Agent({ keepAlive: true, maxSockets: 16, localAddress })
	return (
		base: string,
		method: string,
		path: string,
		{ body, headers = {} }: { body?: Buffer | string; headers?: Record<string, string> } = {},
	) =>
		new Promise<Answer>((resolve, reject) => {
			const sent = { origin: base, ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }
			const req = request(`${base}${path}`, { method, agent, headers: sent }, (res) => {
				const chunks: Buffer[] = []
				res.on('data', (chunk: Buffer) => chunks.push(chunk))
				res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
				res.on('error', reject)
			})
			req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')))
			req.on('error', reject)
			req.end(body)
		})
}

const form = (fields: Record<string, string>) => ({
	body: new URLSearchParams(fields).toString(),
	headers: { 'content-type': 'application/x-www-form-urlencoded' },
})
const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })
const cookieOf = (answer: Answer) =>
	([] as string[])
		.concat(answer.headers['set-cookie'] ?? [])
		.map((cookie) => cookie.split(';')[0]!)
		.join('; ')

/** The production install: tracked files, the build, and node_modules (hard links) without the dev dependencies. */
function productionTree(work: string) {
	const tree = join(work, 'app')
	const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: kit.root, encoding: 'utf8' })
		.split('\0')
		.filter(Boolean)
	for (const file of files) {
		mkdirSync(join(tree, file, '..'), { recursive: true })
		try {
			cpSync(join(kit.root, file), join(tree, file))
		} catch {
			// a file deleted but not yet committed
		}
	}
	cpSync(join(kit.root, 'build'), join(tree, 'build'), { recursive: true })
	const linked = spawnSync('cp', ['-al', join(kit.root, 'node_modules'), join(tree, 'node_modules')], { encoding: 'utf8' })
	if (linked.status !== 0) throw new Error(`copying node_modules failed: ${linked.stderr}`)
	// npm rewrites this file in place: the copy gets its own before the prune.
	rmSync(join(tree, 'node_modules', '.package-lock.json'), { force: true })
	const pruned = spawnSync('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], { cwd: tree, encoding: 'utf8' })
	if (pruned.status !== 0) throw new Error(`npm prune --omit=dev failed: ${pruned.stderr}`)
	const left = spawnSync('npm', ['ls', '--omit=dev', '--depth=0'], { cwd: tree, encoding: 'utf8' })
	if (left.status !== 0) throw new Error(`the pruned tree is incomplete:\n${left.stdout}${left.stderr}`)
	return tree
}

await kit.runBench('two-instance test', async () => {
	const started = Date.now()
	const step = (what: string) => console.log(`  ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`)
	console.log('Two instances behind HAProxy, rolling restart under load')
	const work = kit.workFolder('hmh-instances-')

	const databaseUrl = process.env.DATABASE_URL
		? await kit.useGivenPostgres(process.env.DATABASE_URL, 'hmh_instances')
		: (await kit.startThrowawayPostgres({ port: PG_PORT, prefix: 'hmh-instances-pg-', options: '-c fsync=off -c max_connections=100' })).url
	const s3 = new S3rver({
		port: 0,
		address: '127.0.0.1',
		silent: true,
		directory: join(work, 's3'),
		configureBuckets: [{ name: 'hmh-instances', configs: [] }],
	})
	const { port: s3Port } = await s3.run()
	kit.onCleanup({ name: 'stop s3rver', run: () => s3.close() })
	const tree = productionTree(work)
	step('production tree pruned')

	const proxyUrl = `http://127.0.0.1:${PROXY_PORT}`
	const environment = {
		...process.env,
		NODE_ENV: 'production',
		DATABASE_URL: databaseUrl,
		SESSION_SECRET: randomBytes(32).toString('base64url'),
		DATA_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
		PUBLIC_URL: proxyUrl,
		ALLOW_INSECURE_PUBLIC_URL: 'true',
		TRUSTED_PROXIES: '127.0.0.1',
		S3_BUCKET: 'hmh-instances',
		S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
		S3_ACCESS_KEY_ID: 'S3RVER',
		S3_SECRET_ACCESS_KEY: 'S3RVER',
		S3_FORCE_PATH_STYLE: 'true',
		SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
		METRICS_PORT: '0',
		RATE_LIMIT_STRICT_PER_MINUTE: '100000',
		RATE_LIMIT_LOOSE_PER_MINUTE: '100000',
		LOG_LEVEL: 'warn',
	}
	const instances: Instance[] = [
		{ name: 'instance 1', host: '127.0.0.2', port: PROXY_PORT + 1, dataDir: join(work, 'data1'), child: null },
		{ name: 'instance 2', host: '127.0.0.3', port: PROXY_PORT + 2, dataDir: join(work, 'data2'), child: null },
	]
	const base = (instance: Instance) => `http://${instance.host}:${instance.port}`
	const direct = client('127.0.0.5')
	const ready = async (instance: Instance) =>
		kit.waitFor(
			instance.child!,
			async () => ((await direct(base(instance), 'GET', '/readyz').catch(() => null))?.status === 200 ? true : null),
			120,
		)
	const launch = (instance: Instance) => {
		instance.child = kit.start(
			instance.name,
			'npm',
			['start'],
			{ ...environment, HOST: instance.host, PORT: String(instance.port), DATA_DIR: instance.dataDir },
			{ cwd: tree },
		)
		return ready(instance)
	}
	const stop = async (instance: Instance) => {
		const child = instance.child!
		const exited = new Promise<number | null>((resolve) => child.child.once('exit', (code) => resolve(code)))
		child.child.kill('SIGTERM')
		const code = await exited
		if (code !== 0) throw new Error(kit.failure(child, `${instance.name} exited with ${code} after SIGTERM.`))
	}

	// Both at once, on an empty database.
	await Promise.all(instances.map(launch))
	step('both instances started at once on an empty database, both ready')

	const config = readFileSync(join(kit.root, 'deploy/haproxy.cfg'), 'utf8')
		.replace(/^\s*log stdout.*$/m, '')
		.replace('bind :8080', `bind 127.0.0.1:${PROXY_PORT}`)
		.replace(/^\s*server app1 .*$/m, `\tserver app1 ${instances[0]!.host}:${instances[0]!.port} check`)
		.replace(/^\s*server app2 .*$/m, `\tserver app2 ${instances[1]!.host}:${instances[1]!.port} check`)
	writeFileSync(join(work, 'haproxy.cfg'), config)
	const proxy = kit.start('HAProxy', 'haproxy', ['-db', '-f', join(work, 'haproxy.cfg')], { PATH: `${process.env.PATH}:/usr/sbin` })
	await kit.waitUntilListening(proxy, PROXY_PORT)
	// HAProxy takes a server into rotation once it has seen it ready twice (deploy/haproxy.cfg: rise 2, every second).
	await kit.waitFor(proxy, async () => ((await direct(proxyUrl, 'GET', '/readyz').catch(() => null))?.status === 200 ? true : null))
	await sleep(2500)

	// People to sign in, with a code to scan: seeded through the app's own modules.
	process.env.DATABASE_URL = databaseUrl
	process.env.DATA_ENCRYPTION_KEYS = environment.DATA_ENCRYPTION_KEYS
	process.env.SESSION_SECRET = environment.SESSION_SECRET
	const { seedPeople } = await import('./load-seed.ts')
	const people = await seedPeople(PEOPLE)
	step(`${people.length} people seeded`)

	// ---------------------------------------------------------------- what one instance does, the other sees
	const [one, two] = instances as [Instance, Instance]
	const person = people[0]!
	const signedIn = await direct(base(one), 'POST', '/login', form({ email: person.email, password: PASSWORD }))
	const cookie = cookieOf(signedIn)
	if (signedIn.status !== 302 || !cookie) throw new Error(`sign-in on instance 1 answered ${signedIn.status}`)
	const me = await direct(base(two), 'GET', '/api/auth/user', { headers: { cookie } })
	if (me.status !== 200 || !me.body.toString().includes(person.email))
		throw new Error(`instance 2 did not honour instance 1's session: ${me.status}`)
	const profiles = JSON.parse((await direct(base(one), 'GET', '/api/medical-profiles', { headers: { cookie } })).body.toString()) as Array<{
		id: number
	}>
	const profileId = profiles[0]!.id
	const allergen = `Sealed-by-one ${randomBytes(4).toString('hex')}`
	const added = await direct(base(one), 'POST', '/api/allergies', {
		...json({ medicalProfileId: profileId, allergen, severity: 'Severe' }),
		headers: { 'content-type': 'application/json', cookie },
	})
	if (added.status !== 201)
		throw new Error(`adding an allergy on instance 1 answered ${added.status}: ${added.body.toString().slice(0, 200)}`)
	const read = await direct(base(two), 'GET', `/api/allergies?medicalProfileId=${profileId}`, { headers: { cookie } })
	if (!read.body.toString().includes(allergen)) throw new Error(`instance 2 could not read what instance 1 sealed: ${read.status}`)
	const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#b03030' } })
		.png()
		.toBuffer()
	const boundary = `----instances${randomBytes(6).toString('hex')}`
	const multipart = Buffer.concat([
		Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medicalProfileId"\r\n\r\n${profileId}\r\n`),
		Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="picture"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
		picture,
		Buffer.from(`\r\n--${boundary}--\r\n`),
	])
	const uploaded = await direct(base(one), 'POST', '/api/upload-profile-picture', {
		body: multipart,
		headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie },
	})
	if (uploaded.status >= 300)
		throw new Error(`uploading through instance 1 answered ${uploaded.status}: ${uploaded.body.toString().slice(0, 200)}`)
	const { url } = JSON.parse(uploaded.body.toString()) as { url: string }
	const served = await direct(base(two), 'GET', new URL(url, proxyUrl).pathname, { headers: { cookie } })
	if (served.status !== 200 || served.body.byteLength < 100) throw new Error(`instance 2 did not serve the upload: ${served.status}`)
	step('a session, a sealed allergy and an uploaded picture made on instance 1 work on instance 2')

	// ---------------------------------------------------------------- steady load through the proxy, rolling restart
	const viaProxy = client('127.0.0.4')
	const outcomes = { ok: 0, failed: [] as string[] }
	const saves: Array<{ cookie: string; profileId: number; allergen: string }> = []
	let running = true
	const note = (what: string, answer: Answer | Error, expected: number[]) => {
		if (answer instanceof Error) outcomes.failed.push(`${what}: ${answer.message}`)
		else if (!expected.includes(answer.status)) outcomes.failed.push(`${what}: ${answer.status} ${answer.body.toString().slice(0, 120)}`)
		else outcomes.ok++
	}
	const sessions = await Promise.all(
		people.map(async (p) => {
			const answer = await viaProxy(proxyUrl, 'POST', '/login', form({ email: p.email, password: PASSWORD }))
			const session = cookieOf(answer)
			const [profile] = JSON.parse(
				(await viaProxy(proxyUrl, 'GET', '/api/medical-profiles', { headers: { cookie: session } })).body.toString(),
			) as Array<{ id: number }>
			return { person: p, cookie: session, profileId: profile!.id }
		}),
	)
	const loop = async (n: number) => {
		for (let i = 0; running; i++) {
			const { person: p, cookie: session, profileId: id } = sessions[(n + i) % sessions.length]!
			const kind = i % 3
			if (kind === 0) {
				note('scan', await viaProxy(proxyUrl, 'GET', `/scan/${p.token}`).catch((error: Error) => error), [200])
			} else if (kind === 1) {
				note(
					'sign-in',
					await viaProxy(proxyUrl, 'POST', '/login', form({ email: p.email, password: PASSWORD })).catch((error: Error) => error),
					[302],
				)
			} else {
				const name = `Saved ${n}-${i}-${randomBytes(3).toString('hex')}`
				const answer = await viaProxy(proxyUrl, 'POST', '/api/allergies', {
					...json({ medicalProfileId: id, allergen: name, severity: 'Mild' }),
					headers: { 'content-type': 'application/json', cookie: session },
				}).catch((error: Error) => error)
				note('profile save', answer, [201])
				if (!(answer instanceof Error) && answer.status === 201) saves.push({ cookie: session, profileId: id, allergen: name })
			}
			await sleep(20)
		}
	}
	const load = Promise.all(Array.from({ length: LOAD_CLIENTS }, (_, n) => loop(n)))
	await sleep(2000)
	for (const instance of instances) {
		step(`SIGTERM to ${instance.name}`)
		await stop(instance)
		step(`${instance.name} drained and exited 0; starting it again`)
		await launch(instance)
		// Back in rotation once HAProxy has seen it ready twice.
		await sleep(2500)
		step(`${instance.name} back`)
	}
	await sleep(1500)
	running = false
	await load
	step(`load stopped: ${outcomes.ok} answered as expected, ${outcomes.failed.length} not`)

	// ---------------------------------------------------------------- what was kept
	const lost: string[] = []
	const byProfile = new Map<number, typeof saves>()
	for (const save of saves) byProfile.set(save.profileId, [...(byProfile.get(save.profileId) ?? []), save])
	for (const [id, list] of byProfile) {
		const answer = await direct(base(one), 'GET', `/api/allergies?medicalProfileId=${id}`, { headers: { cookie: list[0]!.cookie } })
		const text = answer.body.toString()
		for (const save of list) if (!text.includes(save.allergen)) lost.push(save.allergen)
	}
	await sleep(3000)
	const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
	const mails = await sql<{ status: string; attempts: number; n: number }[]>`
		select status, attempts, count(*)::int as n from emails where email_type = 'scan-alert' group by 1, 2 order by 1, 2`
	await sql.end()
	const mailSummary = mails.map((row) => `${row.n} ${row.status} after ${row.attempts} attempt(s)`).join(', ') || 'none'
	console.log(`\nRequests through the proxy: ${outcomes.ok + outcomes.failed.length} sent, ${outcomes.failed.length} failed`)
	console.log(`Profile saves acknowledged: ${saves.length}, found afterwards: ${saves.length - lost.length}, lost: ${lost.length}`)
	console.log(`Scan alerts (each should be sent once): ${mailSummary}`)

	const failures: string[] = []
	if (outcomes.failed.length)
		failures.push(
			`${outcomes.failed.length} requests failed through the rolling restart:\n    ${outcomes.failed.slice(0, 10).join('\n    ')}`,
		)
	if (lost.length) failures.push(`${lost.length} acknowledged saves are missing.`)
	if (saves.length < 20) failures.push(`only ${saves.length} saves were made: too few to tell.`)
	const sentOnce = mails.filter((row) => row.status === 'sent' && row.attempts === 1).reduce((sum, row) => sum + row.n, 0)
	const total = mails.reduce((sum, row) => sum + row.n, 0)
	if (total === 0 || sentOnce !== total) failures.push(`scan alerts not each sent once: ${mailSummary}`)
	for (const instance of instances) await stop(instance)
	if (failures.length) throw new Error(`\n- ${failures.join('\n- ')}`)
	console.log(`\ntwo-instance test: PASS (${((Date.now() - started) / 1000).toFixed(1)} s)`)
})
