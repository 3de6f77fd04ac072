import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import postgres from 'postgres'
import type { Database } from '#db/client.ts'

/*
 * What the measurements (bench-scan.ts, bench-lighthouse.ts) share: settings from the environment, undoing what they set
 * up (on success, failure or Ctrl-C), a database of their own on DATABASE_URL's server, child processes whose last
 * output goes into the failure message, waiting for them, and the table they print.
 */

export const root = resolve(import.meta.dirname, '..')

/** A positive number from the environment, or the fallback. */
export function setting(name: string, fallback: number, { integer = false } = {}) {
	const value = Number(process.env[name] ?? fallback)
	if (!(integer ? Number.isInteger(value) : Number.isFinite(value)) || value <= 0)
		throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}`)
	return value
}

// ---------------------------------------------------------------- cleanup, on success, failure or Ctrl-C

type Step = { name: string; run: () => unknown; onExit?: () => void }
const steps: Step[] = []
let cleaning: Promise<void> | undefined

/** What undoes a step of the setup; `onExit` must be synchronous: it runs if the process ends before cleanup did. */
export function onCleanup(step: Step) {
	steps.push(step)
}

/** Undoes what was set up, newest first. */
function cleanup() {
	cleaning ??= (async () => {
		for (let step = steps.pop(); step; step = steps.pop()) {
			try {
				await step.run()
			} catch (error) {
				console.error(`cleanup: could not ${step.name}:`, error)
			}
		}
	})()
	return cleaning
}

/** Runs a measurement: its failure is printed as `<name> failed: …` with exit code 1, and cleanup runs however it ends. */
export async function runBench(name: string, main: () => Promise<void>, { signalNote }: { signalNote?: string } = {}) {
	process.on('exit', () => {
		for (const step of steps.reverse()) step.onExit?.()
	})
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			if (signalNote) console.error(`\n${signal}: ${signalNote}`)
			void cleanup().finally(() => process.exit(130))
		})
	}
	try {
		await main()
	} catch (error) {
		console.error(`\n${name} failed: ${error instanceof Error ? error.message : String(error)}`)
		process.exitCode = 1
	} finally {
		await cleanup()
	}
}

/** A temporary folder, removed at the end. */
/**
 * The app's configuration for one production server on loopback, and for this process when it seeds that server's
 * database: its own DATA_DIR (its data key may stay there: one instance), an http address, no SMTP (mail stays in the
 * outbox table), no bucket, no demo data; stopped at the end (SIGKILL 5 s after SIGTERM) with no wait before the
 * drain and no metrics listener.
 */
export function loopbackServerEnv({
	work,
	port,
	sessionSecret,
	publicUrl = `http://127.0.0.1:${port}`,
}: {
	work: string
	port: number
	sessionSecret: string
	publicUrl?: string
}) {
	return {
		NODE_ENV: 'production',
		DATA_DIR: join(work, 'data'),
		SESSION_SECRET: sessionSecret,
		PUBLIC_URL: publicUrl,
		SINGLE_INSTANCE: 'true',
		ALLOW_INSECURE_PUBLIC_URL: 'true',
		HOST: '127.0.0.1',
		PORT: String(port),
		SMTP_URL: '',
		S3_BUCKET: '',
		SEED_DEMO: 'false',
		SHUTDOWN_DELAY_MS: '0',
		METRICS_PORT: '0',
	}
}

export function workFolder(prefix: string) {
	const work = mkdtempSync(join(tmpdir(), prefix))
	const remove = () => rmSync(work, { recursive: true, force: true })
	onCleanup({ name: 'remove the work folder', run: remove, onExit: remove })
	return work
}

/** A database of our own on DATABASE_URL's server, dropped at the end; returns its URL. */
export async function useGivenPostgres(databaseUrl: string, database: string) {
	const url = new URL(databaseUrl)
	if (url.pathname.replace(/^\//, '') === database)
		throw new Error(`DATABASE_URL must name another database than ${database}: the benchmark creates and drops that one.`)
	const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} })
	const drop = async () => {
		await admin.unsafe(`drop database if exists ${database} with (force)`)
	}
	onCleanup({ name: 'close the admin connection', run: () => admin.end({ timeout: 5 }) })
	await drop()
	await admin.unsafe(`create database ${database}`)
	onCleanup({ name: `drop database ${database}`, run: drop })
	url.pathname = `/${database}`
	return url.toString()
}

// ---------------------------------------------------------------- child processes

/** The message of one of the server's JSON log lines (the line itself when it is not one). */
export function logMessage(line: string): string {
	try {
		const parsed = JSON.parse(line) as { msg?: unknown }
		return typeof parsed.msg === 'string' ? parsed.msg : line
	} catch {
		return line
	}
}

/** `name` reads in a sentence: "the app server", "Chromium". */
export type Child = { name: string; child: ChildProcess; output: string[]; exited: () => string | null }

/** Starts a process that is stopped at the end (SIGTERM, then SIGKILL after 5 s); keeps its last 40 lines of output. */
export function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, { cwd = root } = {}): Child {
	const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
	const output: string[] = []
	const keep = (chunk: Buffer) => {
		output.push(...chunk.toString().split('\n').filter(Boolean))
		output.splice(0, Math.max(0, output.length - 40))
	}
	child.stdout?.on('data', keep)
	child.stderr?.on('data', keep)
	let exit: string | null = null
	child.on('exit', (code, signal) => {
		exit = signal ? `was killed by ${signal}` : `exited with code ${code}`
	})
	child.on('error', (error) => {
		exit = `could not be started (${error.message})`
	})
	onCleanup({
		name: `stop ${name}`,
		run: async () => {
			if (exit) return
			child.kill('SIGTERM')
			for (let i = 0; i < 100 && !exit; i++) await sleep(50)
			if (!exit) child.kill('SIGKILL')
		},
		onExit: () => {
			if (!exit) child.kill('SIGKILL')
		},
	})
	return { name, child, output, exited: () => exit }
}

/** A failure message followed by the child's last output. */
export function failure(child: Child, what: string) {
	return `${what}\n--- last output of ${child.name} ---\n${child.output.join('\n') || '(none)'}`
}

export function isListening(port: number) {
	return new Promise<boolean>((done) => {
		const socket = connect({ port, host: '127.0.0.1' })
		socket.once('connect', () => {
			socket.destroy()
			done(true)
		})
		socket.once('error', () => done(false))
	})
}

export async function assertPortFree(port: number, setting: string) {
	if (await isListening(port)) throw new Error(`Port ${port} is in use; choose another with ${setting}.`)
}

/** Polls `check` until it gives a value; fails when the child ends first or after `seconds`. */
export async function waitFor<T>(child: Child, check: () => Promise<T | null> | T | null, seconds = 90): Promise<T> {
	const deadline = Date.now() + seconds * 1000
	while (Date.now() < deadline) {
		const exit = child.exited()
		if (exit) throw new Error(failure(child, `${child.name} ${exit} before it was ready.`))
		const value = await check()
		if (value != null) return value
		await sleep(100)
	}
	throw new Error(failure(child, `${child.name} was not ready within ${seconds} s.`))
}

export function waitUntilListening(child: Child, port: number) {
	return waitFor(child, async () => ((await isListening(port)) ? true : null))
}

// ---------------------------------------------------------------- report

/** Rows of cells in aligned columns: the first `textColumns` padded on the right, the rest (figures) on the left. */
export function table(rows: string[][], textColumns = 1) {
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
	return rows
		.map((row) =>
			row.map((cell, column) => (column < textColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   '),
		)
		.join('\n')
}

function pgBin() {
	if (process.env.PG_BIN) return process.env.PG_BIN
	const base = '/usr/lib/postgresql'
	const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))) : []
	const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1)
	if (!newest)
		throw new Error('No PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql), and DATABASE_URL is not set.')
	return join(base, newest, 'bin')
}

/** As root, PostgreSQL runs as the postgres user (like .ci/run). */
function runPg(bin: string, tool: string, args: string[], cwd: string) {
	const asRoot = process.getuid?.() === 0
	const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args]
	return spawnSync(command, commandArgs, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/**
 * A PostgreSQL cluster of the bench's own in a temporary folder on 127.0.0.1:port (`options` are pg_ctl's -o), stopped
 * and removed at the end, however the bench ends.
 */
export async function startThrowawayPostgres({ port, prefix, options }: { port: number; prefix: string; options: string }) {
	const bin = pgBin()
	await assertPortFree(port, 'BENCH_PG_PORT')
	const dir = mkdtempSync(join(tmpdir(), prefix))
	const data = join(dir, 'data')
	let stopped = false
	const stop = () => {
		if (stopped) return
		stopped = true
		if (existsSync(join(data, 'postmaster.pid'))) runPg(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', 'stop'], dir)
		rmSync(dir, { recursive: true, force: true })
	}
	onCleanup({ name: 'stop and remove the throwaway PostgreSQL', run: stop, onExit: stop })
	if (process.getuid?.() === 0) {
		const chown = spawnSync('chown', ['postgres:postgres', dir], { encoding: 'utf8' })
		if (chown.status !== 0) throw new Error(`chown postgres ${dir} failed: ${chown.stderr}`)
	}
	const init = runPg(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'], dir)
	if (init.status !== 0) throw new Error(`initdb failed:\n${init.stderr || init.stdout}`)
	const log = join(dir, 'postgres.log')
	const started = runPg(
		bin,
		'pg_ctl',
		['-D', data, '-l', log, '-w', 'start', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${options}`],
		dir,
	)
	if (started.status !== 0) {
		const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : ''
		throw new Error(`PostgreSQL did not start:\n${started.stderr || started.stdout}\n${tail}`)
	}
	return {
		url: `postgres://postgres@127.0.0.1:${port}/postgres`,
		version: spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.trim(),
		pid: Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
		log,
	}
}

/**
 * Runs `work` on the app's database (DATABASE_URL, else PGLITE_DIR, as this process was given), migrated and prepared
 * as the server prepares it, with sealing on; closes it afterwards, whatever happens, so the server may open it next.
 */
export async function withAppDatabase<T>(work: (db: Database) => Promise<T>, { cleanup }: { cleanup?: () => Promise<void> } = {}) {
	const { db, closeDb } = await import('#db/client.ts')
	try {
		const { prepareDatabase } = await import('#db/prepare.ts')
		;(await import('#app/utils/sealed-data.server.ts')).sealColumns()
		await prepareDatabase(db, { jobQueues: (await import('#app/jobs/queues.ts')).JOB_QUEUES })
		return await work(db)
	} finally {
		await cleanup?.()
		await closeDb()
	}
}
