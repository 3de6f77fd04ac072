import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { env } from '#app/utils/env.server.ts'
import { HEAVY_CONCURRENCY, runHeavy } from '#app/domain/heavy-work.server.ts'
import type { RenderResults, RenderTask } from './tasks.ts'
import type { RenderReply, RenderRequest } from './renderer.ts'

/*
 * Files made on demand (batches, wallet cards, lock screens, QR images, uploaded PDFs made safe) are made by renderer
 * processes, so the main thread keeps answering responders' scans meanwhile. Processes, not worker threads: a thread
 * shares the server's address space, and rasterising a lock screen maps and faults in tens of megabytes whose kernel
 * locks stalled the server's own thread (the responder page's p99 went from 50 to 130 ms with threads, even at the
 * lowest priority). Each renderer runs under SCHED_IDLE where Linux has it: only on a core nothing else wants. A task
 * takes its place in the heavy-work pool first (a full queue refuses it at once), so there are never more tasks under
 * way than renderers.
 */
export const RENDERER_FILE = resolve(process.cwd(), 'app/domain/render/renderer.ts')
/** As many as the heavy-work pool lets run at once: one core fewer than the machine has. */
const MAX_RENDERERS = HEAVY_CONCURRENCY
/** A renderer idle this long ends (a new one starts in about half a second). */
const IDLE_MS = 5 * 60_000
/**
 * A renderer's heap, capped well below what V8 would let it grow to: a thousand codes need under 40 MB of old
 * generation, and pdf-lib holds a whole uploaded document in memory, several times its size.
 */
const HEAP_MB = 256
/** A task that takes longer than this has gone wrong: its renderer is ended. */
export const TASK_TIMEOUT_MS = 120_000
const CHRT = '/usr/bin/chrt'

type Pending = {
	task: RenderTask
	timeoutMs: number
	resolve: (result: unknown) => void
	reject: (error: Error) => void
}
type Slot = { child: ChildProcess; current?: Pending & { id: number; timer: NodeJS.Timeout }; idleTimer?: NodeJS.Timeout }

const slots = new Set<Slot>()
const idle: Slot[] = []
const queue: Pending[] = []
let nextId = 1

/** Makes a file on a renderer, in the heavy-work pool; resolves with its bytes. */
export async function renderFile(task: Extract<RenderTask, { kind: FileKind }>): Promise<Uint8Array> {
	return render(task)
}
type FileKind = { [K in RenderTask['kind']]: RenderResults[K] extends Uint8Array ? K : never }[RenderTask['kind']]

/** Runs a task on a renderer, in the heavy-work pool; one past `timeoutMs` ends its renderer and fails. */
export function render<T extends RenderTask>(task: T, timeoutMs = TASK_TIMEOUT_MS): Promise<RenderResults[T['kind']]> {
	return runHeavy(
		() =>
			new Promise<RenderResults[T['kind']]>((resolve, reject) => {
				queue.push({ task, timeoutMs, resolve: resolve as (result: unknown) => void, reject })
				pump()
			}),
	)
}

/** Renderers alive and tasks waiting for one. */
export function renderPoolState() {
	return { workers: slots.size, busy: slots.size - idle.length, queued: queue.length }
}

/** The renderers' process ids (a test reads their scheduling policy). */
export function rendererPids() {
	return [...slots].map((slot) => slot.child.pid).filter((pid) => pid !== undefined)
}

/** Ends every renderer now (tests, scripts, shutdown); tasks under way fail. */
export async function closeRenderWorkers() {
	const closed = new Error('The renderer was closed.')
	for (const pending of queue.splice(0)) pending.reject(closed)
	const all = [...slots]
	const exits = all.map((slot) => new Promise((done) => (slot.child.exitCode === null ? slot.child.once('exit', done) : done(null))))
	for (const slot of all) retire(slot, closed)
	await Promise.all(exits)
}

function pump() {
	while (queue.length > 0) {
		const slot = idle.pop() ?? (slots.size < MAX_RENDERERS ? spawnRenderer() : undefined)
		if (!slot) return
		start(slot, queue.shift()!)
	}
}

function spawnRenderer(): Slot | undefined {
	if (!existsSync(RENDERER_FILE)) {
		const error = new Error(`The renderer ${RENDERER_FILE} is missing: the server must run from the repository root.`)
		for (const pending of queue.splice(0)) pending.reject(error)
		return undefined
	}
	// The server runs its TypeScript through tsx (npm start), and so does the renderer, from its source file.
	const node = [process.execPath, `--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', RENDERER_FILE]
	const [command, ...args] = env.RENDERER_IDLE_PRIORITY && existsSync(CHRT) ? [CHRT, '--idle', '0', ...node] : node
	const child = spawn(command!, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' })
	const slot: Slot = { child }
	slots.add(slot)
	child.on('message', (reply: RenderReply) => {
		const current = slot.current
		if (!current || current.id !== reply.id) return
		clearTimeout(current.timer)
		slot.current = undefined
		if (reply.outcome === 'made') current.resolve(reply.result)
		else current.reject(new Error(`Making the file failed: ${reply.message}`))
		park(slot)
		pump()
	})
	child.on('error', (error) => retire(slot, error))
	child.on('exit', (code, signal) => retire(slot, new Error(`The renderer stopped (${signal ?? `exit code ${code}`}).`)))
	return slot
}

function start(slot: Slot, pending: Pending) {
	clearTimeout(slot.idleTimer)
	const id = nextId++
	const timer = setTimeout(() => retire(slot, new TaskTimeout(pending.timeoutMs)), pending.timeoutMs)
	timer.unref()
	slot.current = { ...pending, id, timer }
	slot.child.ref()
	slot.child.channel?.ref()
	slot.child.send({ id, task: pending.task } satisfies RenderRequest)
}

/** A task ran past its time: its renderer was ended. */
export class TaskTimeout extends Error {
	constructor(ms: number) {
		super(`Making the file took more than ${ms / 1000} s.`)
		this.name = 'TaskTimeout'
	}
}

/** An idle renderer keeps no event loop alive: a script or test that is done can exit. */
function park(slot: Slot) {
	slot.child.unref()
	slot.child.channel?.unref()
	idle.push(slot)
	slot.idleTimer = setTimeout(() => retire(slot), IDLE_MS)
	slot.idleTimer.unref()
}

/** Takes a renderer out of the pool (it failed, timed out, idled or is being closed) and ends it; its task, if any, fails. */
function retire(slot: Slot, error?: Error) {
	if (!slots.delete(slot)) return
	clearTimeout(slot.idleTimer)
	const at = idle.indexOf(slot)
	if (at >= 0) idle.splice(at, 1)
	if (slot.current) {
		clearTimeout(slot.current.timer)
		slot.current.reject(error ?? new Error('The renderer stopped.'))
		slot.current = undefined
	}
	if (slot.child.exitCode === null && slot.child.signalCode === null) slot.child.kill('SIGKILL')
	pump()
}
