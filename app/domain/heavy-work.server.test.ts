import { describe, expect, test } from 'vitest'
import { env } from '#app/utils/env.server.ts'
import {
	DOWNLOADS_AT_ONCE,
	HEAVY_CONCURRENCY,
	HEAVY_QUEUE_LIMIT,
	heavyDownload,
	heavyWork,
	heavyWorkState,
	REQUESTER_LINE,
	runHeavy,
} from './heavy-work.server.ts'

const gate = () => {
	let open!: () => void
	const opened = new Promise<void>((resolve) => (open = resolve))
	return { open, opened }
}

describe('the heavy-work pool', () => {
	test('runs at most its concurrency at once, queues a few more in order, and refuses the rest at once with a 503', async () => {
		const { open, opened } = gate()
		const started: number[] = []
		const total = HEAVY_CONCURRENCY + HEAVY_QUEUE_LIMIT
		const accepted = Array.from({ length: total }, (_, i) =>
			runHeavy(async () => {
				started.push(i)
				await opened
				return i
			}),
		)
		await new Promise((resolve) => setTimeout(resolve, 10))
		expect(started).toHaveLength(HEAVY_CONCURRENCY)
		expect(heavyWorkState()).toMatchObject({ running: HEAVY_CONCURRENCY, waiting: HEAVY_QUEUE_LIMIT })
		await expect(runHeavy(async () => 'one too many')).rejects.toMatchObject({ status: 503, retryAfterSeconds: 5 })
		open()
		expect(await Promise.all(accepted)).toEqual(Array.from({ length: total }, (_, i) => i))
		expect(started).toEqual(Array.from({ length: total }, (_, i) => i))
		expect(heavyWorkState()).toMatchObject({ running: 0, waiting: 0 })
	})

	test('a failure frees its place; work started from inside the pool runs at once', async () => {
		await expect(runHeavy(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken')
		expect(await runHeavy(() => runHeavy(async () => 'nested'))).toBe('nested')
		expect(heavyWorkState()).toMatchObject({ running: 0, waiting: 0 })
	})

	test(`downloads count per requester: past RATE_LIMIT_HEAVY_PER_MINUTE a 429 with Retry-After, and nothing runs`, async () => {
		const requester = `test-${Math.random()}`
		let runs = 0
		for (let i = 0; i < env.RATE_LIMIT_HEAVY_PER_MINUTE; i++) await heavyDownload(requester, async () => runs++)
		await expect(heavyDownload(requester, async () => runs++)).rejects.toMatchObject({ status: 429 })
		expect(runs).toBe(env.RATE_LIMIT_HEAVY_PER_MINUTE)
		expect(await heavyDownload(`${requester}-other`, async () => 'another account')).toBe('another account')
	})

	test(`one requester has at most ${DOWNLOADS_AT_ONCE} in the pool and ${REQUESTER_LINE} more in line: a burst of sixteen never fills the queue for others`, async () => {
		const requester = `burst-${Math.random()}`
		const { open, opened } = gate()
		const sent = Array.from({ length: 16 }, () => heavyWork(requester, () => opened.then(() => 'made')))
		const kept = DOWNLOADS_AT_ONCE + REQUESTER_LINE
		const refused = await Promise.all(
			sent.slice(kept).map((p) =>
				p.then(
					() => 0,
					(error: { status: number }) => error.status,
				),
			),
		)
		expect(refused).toEqual(Array(16 - kept).fill(429))
		expect(heavyWorkState()).toMatchObject({ running: Math.min(DOWNLOADS_AT_ONCE, HEAVY_CONCURRENCY) })
		expect(heavyWorkState().running + heavyWorkState().waiting).toBe(DOWNLOADS_AT_ONCE)
		// Someone else is not held back by the burst's line, only by the pool.
		const other = heavyWork(`${requester}-other`, async () => 'other')
		open()
		expect(await Promise.all(sent.slice(0, kept))).toEqual(Array(kept).fill('made'))
		expect(await other).toBe('other')
		expect(heavyWorkState()).toMatchObject({ running: 0, waiting: 0 })
	})
})
