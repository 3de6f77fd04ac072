import { afterAll, expect, test } from 'vitest'
import { HEAVY_CONCURRENCY, heavyWorkState } from '#app/domain/heavy-work.server.ts'
import { decodeImages } from '#tests/zbar-all.ts'
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { env } from '#app/utils/env.server.ts'
import { closeRenderWorkers, rendererPids, renderFile, renderPoolState } from './pool.server.ts'
import { CARD_SCAN_URL, fullCardProfile, pngSize } from '#tests/cards.ts'
import { cardFacts } from '#app/domain/cards/facts.ts'

afterAll(closeRenderWorkers)

const codes = [{ id: 1, pin: 'ABCD2345', scanUrl: 'https://hitmehelpers.example/scan/pool-test' }]
const nudge = { x: 0, y: 0 }
const batch = (job: Partial<{ format: 'pdf' | 'png' | 'svg'; layout: string; codes: typeof codes }>) =>
	renderFile({ kind: 'batch-file', job: { format: 'png', codes, layout: '', nudge, ...job } })

test('a worker builds the file and hands its bytes back', async () => {
	const pdf = await batch({ format: 'pdf', layout: 'ol330' })
	expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
})

test('a failed job fails with the builder’s message, and the next job runs', async () => {
	await expect(batch({ format: 'pdf', layout: 'nope' })).rejects.toThrow(/Making the file failed: .*Unknown label layout nope/s)
	const zip = await batch({ format: 'png' })
	expect(Buffer.from(zip.subarray(0, 2)).toString('latin1')).toBe('PK')
})

test(`no more than ${HEAVY_CONCURRENCY} tasks run at once, on as many workers; the others wait their turn, and each gets its own file`, async () => {
	const many = ['a', 'b', 'c', 'd', 'e'].map((tag) => ({ ...codes[0]!, scanUrl: `https://hitmehelpers.example/scan/${tag}` }))
	const pending = many.map((code) => batch({ format: 'png', codes: [code] }))
	// Asked for now, before any can finish (a renderer answers a small batch within a few ms).
	expect(heavyWorkState()).toMatchObject({ running: HEAVY_CONCURRENCY, waiting: many.length - HEAVY_CONCURRENCY })
	expect(renderPoolState()).toMatchObject({ busy: HEAVY_CONCURRENCY, queued: 0 })
	const files = await Promise.all(pending)
	expect(renderPoolState()).toMatchObject({ busy: 0, queued: 0 })
	expect(renderPoolState().workers).toBeLessThanOrEqual(HEAVY_CONCURRENCY)
	const JSZip = (await import('jszip')).default
	const pngs = await Promise.all(files.map(async (file) => (await JSZip.loadAsync(file)).file('hmh-sticker-1.png')!.async('uint8array')))
	expect(await decodeImages(pngs)).toEqual(many.map((code) => [code.scanUrl]))
})

test('a lock screen and a QR image are made on a worker too', async () => {
	const png = await renderFile({
		kind: 'lock-screen',
		input: { facts: cardFacts(fullCardProfile(), 'en'), scanUrl: CARD_SCAN_URL, width: 1080, height: 2400 },
	})
	expect(pngSize(png)).toEqual({ width: 1080, height: 2400 })
	const qr = await renderFile({ kind: 'qr-png', options: { data: CARD_SCAN_URL, width: 300 } })
	expect(await decodeImages([qr])).toEqual([[CARD_SCAN_URL]])
})

test('after closeRenderWorkers a new job starts a new worker', async () => {
	await closeRenderWorkers()
	const zip = await batch({ format: 'svg' })
	expect(Buffer.from(zip.subarray(0, 2)).toString('latin1')).toBe('PK')
})

test.runIf(existsSync('/usr/bin/chrt'))('renderers run under SCHED_IDLE unless RENDERER_IDLE_PRIORITY is off', async () => {
	const policies = () =>
		rendererPids().map((pid) => /policy: (\S+)/.exec(execFileSync('/usr/bin/chrt', ['-p', String(pid)], { encoding: 'utf8' }))?.[1])
	const before = env.RENDERER_IDLE_PRIORITY
	try {
		await closeRenderWorkers()
		await batch({ format: 'svg' })
		expect(policies()).toEqual(['SCHED_IDLE'])
		await closeRenderWorkers()
		env.RENDERER_IDLE_PRIORITY = false
		await batch({ format: 'svg' })
		expect(policies()).toEqual(['SCHED_OTHER'])
	} finally {
		env.RENDERER_IDLE_PRIORITY = before
		await closeRenderWorkers()
	}
})
