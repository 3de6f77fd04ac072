import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import { tsWorkerBootstrap } from '#app/utils/worker-thread.server.ts'
import type { RenderJob } from './files.server.ts'
import type { RenderReply, RenderRequest } from './render-worker.ts'

/* Batch files are built on worker threads, so the main thread keeps answering responders' scans meanwhile. */
export const WORKER_FILE = resolve(process.cwd(), 'app/domain/admin/batches/render-worker.ts')
const BOOTSTRAP = tsWorkerBootstrap(WORKER_FILE)
/** Two at most: a small server has two cores, and the responders need one. Further jobs wait their turn. */
const MAX_WORKERS = 2
/** A worker that has been idle this long ends; until then it costs nothing and keeps no process alive. */
const IDLE_MS = 30_000
/**
 * A worker's heap, capped well below what V8 would let it grow to: a thousand codes need under 40 MB of old generation,
 * and without the cap four jobs in a row left the process at about 400 MB instead of about 300.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 }
/** A job that takes longer than this has gone wrong: its worker is ended. */
const JOB_TIMEOUT_MS = 120_000

type Pending = { job: RenderJob; resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void }
type Slot = { worker: Worker; current?: Pending & { id: number; timer: NodeJS.Timeout }; idleTimer?: NodeJS.Timeout }

const slots = new Set<Slot>()
const idle: Slot[] = []
const queue: Pending[] = []
let nextId = 1

/** Builds a batch file on a worker thread; resolves with its bytes. */
export function renderInWorker(job: RenderJob): Promise<Uint8Array> {
	return new Promise((resolve, reject) => {
		queue.push({ job, resolve, reject })
		pump()
	})
}

/** Workers alive and jobs waiting for one. */
export function renderPoolState() {
	return { workers: slots.size, busy: slots.size - idle.length, queued: queue.length }
}

/** Ends every worker now (tests, scripts, shutdown); jobs under way fail. */
export async function closeRenderWorkers() {
	const closed = new Error('The batch renderer was closed.')
	for (const pending of queue.splice(0)) pending.reject(closed)
	const all = [...slots]
	for (const slot of all) retire(slot, closed)
	await Promise.all(all.map((slot) => slot.worker.terminate()))
}

function pump() {
	while (queue.length > 0) {
		const slot = idle.pop() ?? (slots.size < MAX_WORKERS ? spawn() : undefined)
		if (!slot) return
		start(slot, queue.shift()!)
	}
}

function spawn(): Slot | undefined {
	if (!existsSync(WORKER_FILE)) {
		const error = new Error(`The batch renderer ${WORKER_FILE} is missing: the server must run from the repository root.`)
		for (const pending of queue.splice(0)) pending.reject(error)
		return undefined
	}
	const slot: Slot = { worker: new Worker(BOOTSTRAP, { eval: true, resourceLimits: RESOURCE_LIMITS }) }
	slots.add(slot)
	slot.worker.on('message', (reply: RenderReply) => {
		const current = slot.current
		if (!current || current.id !== reply.id) return
		clearTimeout(current.timer)
		slot.current = undefined
		if (reply.ok) current.resolve(new Uint8Array(reply.buffer))
		else current.reject(new Error(`Building the batch file failed: ${reply.message}`))
		park(slot)
		pump()
	})
	slot.worker.on('error', (error) => retire(slot, error))
	slot.worker.on('exit', (code) => retire(slot, new Error(`The batch renderer stopped (exit code ${code}).`)))
	return slot
}

function start(slot: Slot, pending: Pending) {
	clearTimeout(slot.idleTimer)
	const id = nextId++
	const timer = setTimeout(() => {
		retire(slot, new Error(`Building the batch file took more than ${JOB_TIMEOUT_MS / 1000} s.`))
		void slot.worker.terminate()
	}, JOB_TIMEOUT_MS)
	timer.unref()
	slot.current = { ...pending, id, timer }
	slot.worker.ref()
	slot.worker.postMessage({ id, job: pending.job } satisfies RenderRequest)
}

function park(slot: Slot) {
	slot.worker.unref()
	idle.push(slot)
	slot.idleTimer = setTimeout(() => {
		retire(slot)
		void slot.worker.terminate()
	}, IDLE_MS)
	slot.idleTimer.unref()
}

/** Takes a worker out of the pool (it failed, timed out, idled or is being closed); its job, if any, fails. */
function retire(slot: Slot, error?: Error) {
	if (!slots.delete(slot)) return
	clearTimeout(slot.idleTimer)
	const at = idle.indexOf(slot)
	if (at >= 0) idle.splice(at, 1)
	if (slot.current) {
		clearTimeout(slot.current.timer)
		slot.current.reject(error ?? new Error('The batch renderer stopped.'))
		slot.current = undefined
	}
	pump()
}
