import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, test, timeLimit } from './fixtures.ts'
import { startSmtpServer } from './smtp-server.ts'

// Folders of instances still running or kept for inspection; whatever a failed test left is removed when the process ends.
const folders = new Set<string>()
const removeFolder = (dir: string) => {
	rmSync(dir, { recursive: true, force: true })
	folders.delete(dir)
}
process.on('exit', () => folders.forEach(removeFolder))

/** A port nothing listens on now, so runs started side by side (each with its own E2E_PORT) never collide. */
export async function freePort() {
	const server = createServer()
	await new Promise<void>((resolve) => server.listen(0, resolve))
	const { port } = server.address() as AddressInfo
	await new Promise<void>((resolve) => server.close(() => resolve()))
	return port
}

/**
 * A second instance of the built app with settings of its own (its own database too). With keepLog, what it writes to
 * stdout (its JSON log lines) is kept for `log()`; otherwise it is dropped.
 */
export async function startAppServer(port: number, env: Record<string, string>, { keepLog = false } = {}) {
	const baseURL = `http://localhost:${port}`
	const dataDir = mkdtempSync(join(tmpdir(), 'hmh-app-'))
	const dbName = `hmh_e2e_${port}`
	const fixturesFile = join(mkdtempSync(join(tmpdir(), 'hmh-fixtures-')), 'fixtures.json')
	folders.add(dataDir).add(dirname(fixturesFile))
	const removeData = () => [dataDir, dirname(fixturesFile)].forEach(removeFolder)
	const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/start-server.ts'], {
		cwd: join(import.meta.dirname, '../..'),
		env: {
			...process.env,
			NODE_ENV: 'production',
			PORT: String(port),
			PUBLIC_URL: baseURL,
			SESSION_SECRET: 'e2e-session-secret',
			RATE_LIMIT_STRICT_PER_MINUTE: '1000',
			E2E_FIXTURES: fixturesFile,
			E2E_DB_NAME: dbName,
			E2E_DATA_DIR: dataDir,
			// Stopped by SIGTERM after each test: no wait before the drain; several instances run, none with a metrics listener.
			SHUTDOWN_DELAY_MS: '0',
			METRICS_PORT: '0',
			...env,
		},
		stdio: ['ignore', keepLog ? 'pipe' : 'ignore', keepLog ? 'pipe' : 'inherit'],
	})
	const logChunks: Buffer[] = []
	const errorChunks: Buffer[] = []
	child.stdout?.on('data', (chunk: Buffer) => logChunks.push(chunk))
	child.stderr?.on('data', (chunk: Buffer) => {
		errorChunks.push(chunk)
		process.stderr.write(chunk)
	})
	const deadline = Date.now() + 60_000
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`App server on ${port} exited with ${child.exitCode}`)
		try {
			if ((await fetch(`${baseURL}/auth`)).ok) break
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250))
	}
	return {
		baseURL,
		/** Everything it logged so far (with keepLog): its JSON lines, and what else reached stderr. */
		log: () => Buffer.concat(logChunks).toString('utf8'),
		stderr: () => Buffer.concat(errorChunks).toString('utf8'),
		/** Where its uploads live, and its database (PostgreSQL when DATABASE_URL is set, else PGlite): to inspect once stopped with keepData. */
		dataDir,
		/** This instance's own sticker codes and accounts (start-server.ts writes them). */
		fixtures: () =>
			JSON.parse(readFileSync(fixturesFile, 'utf8')) as {
				codes: Array<{ pin: string; token: string; scanUrl: string }>
				users: Array<{ email: string; firstName: string; password: string }>
			},
		database: process.env.DATABASE_URL ? { url: withDatabase(process.env.DATABASE_URL, dbName) } : { pgliteDir: join(dataDir, 'db') },
		/** Stops it and removes its folders, unless keepData (then removeData() once they have been read). */
		stop: async ({ keepData = false } = {}) => {
			if (child.exitCode === null && child.signalCode === null) {
				const exited = new Promise((resolve) => child.once('exit', resolve))
				child.kill('SIGTERM')
				await exited
			}
			if (!keepData) removeData()
		},
		removeData,
	}
}

function withDatabase(url: string, name: string) {
	const next = new URL(url)
	next.pathname = `/${name}`
	return next.toString()
}

/**
 * An instance of its own whose mail goes to a real SMTP server on loopback, ready once it answers and has written its
 * fixtures (on a busy machine that takes longer than startAppServer waits). `mailTo` waits for a message's text.
 */
export async function startMailedInstance(env: Record<string, string> = {}) {
	const smtp = await startSmtpServer()
	const app = await startAppServer(await freePort(), { SMTP_URL: smtp.url, ...env })
	const url = (path: string) => `${app.baseURL}${path}`
	const ready = async () => {
		const answer = await fetch(url('/auth')).catch(() => null)
		try {
			return Boolean(answer?.ok && app.fixtures().users.length)
		} catch {
			return false
		}
	}
	await expect.poll(ready, { timeout: timeLimit(120_000), intervals: [500] }).toBe(true)
	return {
		smtp,
		app,
		url,
		mailTo: (address: string, subject: string, timeout = 15_000) =>
			expect.poll(() => smtp.received.find((m) => m.to.includes(address) && m.subject === subject)?.text, { timeout }),
		stop: async () => {
			await app.stop()
			await smtp.close()
		},
	}
}

/** For a describe block: an instance of its own with delivered mail, started before its tests and stopped after them. */
export function mailedInstanceForTheseTests() {
	let mailed: Awaited<ReturnType<typeof startMailedInstance>> | undefined
	test.beforeAll(async () => {
		test.setTimeout(timeLimit(180_000))
		mailed = await startMailedInstance()
	})
	test.afterAll(async () => {
		await mailed?.stop()
	})
	return () => mailed!
}
