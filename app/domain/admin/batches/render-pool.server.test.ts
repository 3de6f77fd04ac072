import { afterAll, expect, test } from 'vitest'
import { decodeImages } from '#tests/zbar-all.ts'
import { closeRenderWorkers, renderInWorker, renderPoolState } from './render-pool.server.ts'

afterAll(closeRenderWorkers)

const codes = [{ id: 1, pin: 'ABCD2345', scanUrl: 'https://hitmehelpers.example/scan/pool-test' }]
const nudge = { x: 0, y: 0 }

test('a worker builds the file and hands its bytes back', async () => {
	const pdf = await renderInWorker({ format: 'pdf', codes, layout: 'ol330', nudge })
	expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
})

test('a failed job fails with the builder’s message, and the next job runs', async () => {
	await expect(renderInWorker({ format: 'pdf', codes, layout: 'nope', nudge })).rejects.toThrow(
		/Building the batch file failed: .*Unknown label layout nope/s,
	)
	const zip = await renderInWorker({ format: 'png', codes, layout: '', nudge })
	expect(Buffer.from(zip.subarray(0, 2)).toString('latin1')).toBe('PK')
})

test('jobs beyond two wait their turn; each gets its own file', async () => {
	const many = ['a', 'b', 'c', 'd', 'e'].map((tag) => ({ ...codes[0]!, scanUrl: `https://hitmehelpers.example/scan/${tag}` }))
	const pending = many.map((code) => renderInWorker({ format: 'png', codes: [code], layout: '', nudge }))
	expect(renderPoolState()).toEqual({ workers: 2, busy: 2, queued: 3 })
	const files = await Promise.all(pending)
	expect(renderPoolState()).toMatchObject({ busy: 0, queued: 0 })
	const JSZip = (await import('jszip')).default
	const pngs = await Promise.all(files.map(async (file) => (await JSZip.loadAsync(file)).file('hmh-sticker-1.png')!.async('uint8array')))
	expect(await decodeImages(pngs)).toEqual(many.map((code) => [code.scanUrl]))
})

test('after closeRenderWorkers a new job starts a new worker', async () => {
	await closeRenderWorkers()
	const zip = await renderInWorker({ format: 'svg', codes, layout: '', nudge })
	expect(Buffer.from(zip.subarray(0, 2)).toString('latin1')).toBe('PK')
})
