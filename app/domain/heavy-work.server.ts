import { AsyncLocalStorage } from 'node:async_hooks'
import { availableParallelism } from 'node:os'
import { DomainError } from '#app/utils/errors.ts'
import { env } from '#app/utils/env.server.ts'
import { accountKey, hit } from '#app/utils/rate-limit.server.ts'

/**
 * Renders and other work that keeps a core busy for tens of milliseconds or more (wallet cards, lock screens, QR images,
 * batches, statements and shipping documents, uploaded pictures and PDFs) run through this one pool: at most one core
 * fewer than the machine has at once, so a core is always left for the responder page; a few more wait their turn; past
 * that the answer is at once a 503 with Retry-After, never a queue that grows while responders wait.
 */
export const HEAVY_CONCURRENCY = Math.max(1, availableParallelism() - 1)
export const HEAVY_QUEUE_LIMIT = 4 * HEAVY_CONCURRENCY + 4
export const BUSY = 'The server is busy making other files. Please try again in a few seconds.'
export const TOO_MANY_DOWNLOADS = 'Too many downloads. Please wait a minute and try again.'
export const DOWNLOADS_UNDER_WAY = 'Your other downloads are still being made. Please try again in a few seconds.'
/** Tasks one requester may have in the pool at once; a few more wait in the requester's own line, the rest are refused. */
export const DOWNLOADS_AT_ONCE = 2
export const REQUESTER_LINE = 8
const BUSY_RETRY_SECONDS = 5

let running = 0
const waiting: Array<() => void> = []
/** Work already holding a place: what it starts in the pool runs at once (waiting for its own place would never end). */
const holding = new AsyncLocalStorage<true>()

/** The pool's state now: for /healthz and the benchmark. */
export function heavyWorkState() {
	return { running, waiting: waiting.length, concurrency: HEAVY_CONCURRENCY, queueLimit: HEAVY_QUEUE_LIMIT }
}

/** Runs work in the pool, waiting for a place if need be; a full queue refuses it (DomainError 503) without running it. */
export async function runHeavy<T>(work: () => Promise<T>): Promise<T> {
	if (holding.getStore()) return work()
	if (running >= HEAVY_CONCURRENCY) {
		if (waiting.length >= HEAVY_QUEUE_LIMIT) throw new DomainError(503, BUSY, undefined, BUSY_RETRY_SECONDS)
		await new Promise<void>((start) => waiting.push(start))
	} else running++
	try {
		return await holding.run(true, work)
	} finally {
		const next = waiting.shift()
		// The place passes straight to the next in line, so `running` never drops while anyone waits.
		if (next) next()
		else running--
	}
}

type Line = { running: number; waiting: Array<() => void> }
const lines = new Map<string, Line>()

/**
 * Work for one requester (an account, or a donor's address): at most DOWNLOADS_AT_ONCE of theirs in the pool at once,
 * REQUESTER_LINE more waiting in their own line (a 429 past it), so one account sending as fast as it can never fills
 * the pool's queue for everyone else; a page showing several QR images still gets them all, a few at a time.
 */
export async function heavyWork<T>(requester: string, work: () => Promise<T>): Promise<T> {
	// Work started by work already in the pool holds its place already (a card's photo, made for the card).
	if (holding.getStore()) return work()
	let line = lines.get(requester)
	if (!line) lines.set(requester, (line = { running: 0, waiting: [] }))
	if (line.running >= DOWNLOADS_AT_ONCE) {
		if (line.waiting.length >= REQUESTER_LINE) throw new DomainError(429, DOWNLOADS_UNDER_WAY, undefined, 2)
		await new Promise<void>((start) => line.waiting.push(start))
	} else line.running++
	try {
		return await runHeavy(work)
	} finally {
		const next = line.waiting.shift()
		if (next) next()
		else if (--line.running === 0) lines.delete(requester)
	}
}

/** A download made on demand: counted in the requester's heavy tier (RATE_LIMIT_HEAVY_PER_MINUTE, a 429 past it), then heavyWork. */
export async function heavyDownload<T>(requester: string, work: () => Promise<T>): Promise<T> {
	const counted = await hit(accountKey('heavy', requester), env.RATE_LIMIT_HEAVY_PER_MINUTE)
	if (!counted.allowed) throw new DomainError(429, TOO_MANY_DOWNLOADS, undefined, counted.retryAfterSeconds)
	return heavyWork(requester, work)
}
