import { cpus, loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import * as kit from './bench-kit.ts'

/*
 * `npm run bench:batch`: a measurement, not a test. Generates batches of new sticker codes in each of the four formats
 * (PDF, PNG ZIP, SVG ZIP, Word) the way the owner's page does (app/domain/admin/batches), and prints per format the
 * wall time, the file's size, the process's peak memory (the render workers are threads of this process, so they
 * count), how late the main thread's event loop ran meanwhile and how long a responder-sized database read took meanwhile
 * (what a scan waits for), and a decode check of a sample of the file's codes with zbar. The first batch after a start
 * (which also starts a worker) is measured on its own, as a cold PDF.
 * Targets for 1000 codes on a warm server: PDF at most 2 s, PNG ZIP at most 5 s, peak RSS at most 300 MB, main thread p99 at most 100 ms.
 *
 * PostgreSQL: DATABASE_URL when set (a database hmh_bench_batch is created on it and dropped at the end); otherwise an
 * in-memory PGlite. Settings (environment): BENCH_BATCH_COUNT (1000), BENCH_BATCH_LAYOUT (letter-grid),
 * BENCH_BATCH_FORMATS (pdf,png,svg,docx: which to run, in that order), BENCH_DECODE (all: decode every code of every
 * file with zbar, not a sample of 12), PUBLIC_URL
 * (https://hitmehelpers.org: the length of the scan URL sets the size of each code).
 */

const COUNT = kit.setting('BENCH_BATCH_COUNT', 1000, { integer: true })
const LAYOUT = process.env.BENCH_BATCH_LAYOUT ?? 'letter-grid'
const ALL_FORMATS = ['pdf', 'png', 'svg', 'docx'] as const
const FORMATS = (process.env.BENCH_BATCH_FORMATS?.split(',') ?? ALL_FORMATS).map((format) => {
	const known = ALL_FORMATS.find((f) => f === format.trim())
	if (!known) throw new Error(`BENCH_BATCH_FORMATS: no format ${format}`)
	return known
})
const TARGET_SECONDS: Partial<Record<(typeof ALL_FORMATS)[number], number>> = { pdf: 2, png: 5 }
const TARGET_RSS_MB = 300
const TARGET_P99_MS = 100
const BENCH_DATABASE = 'hmh_bench_batch'
/** How many codes of each file are decoded: a spread sample, or every one with BENCH_DECODE=all (slower). */
const SAMPLE = process.env.BENCH_DECODE === 'all' ? Number.POSITIVE_INFINITY : 12

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

function percentile(values: number[], p: number) {
	if (values.length === 0) return Number.NaN
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function main() {
	process.env.PUBLIC_URL ??= 'https://hitmehelpers.org'
	process.env.SESSION_SECRET ??= 'bench-batch'
	process.env.DATA_DIR = kit.workFolder('hmh-bench-batch-')
	let database: string
	if (process.env.DATABASE_URL) {
		process.env.DATABASE_URL = await kit.useGivenPostgres(process.env.DATABASE_URL, BENCH_DATABASE)
		database = `database ${BENCH_DATABASE} on ${new URL(process.env.DATABASE_URL).host} (DATABASE_URL)`
	} else {
		process.env.PGLITE_DIR = 'memory://'
		database = 'PGlite in memory, whose own memory counts in RSS (set DATABASE_URL for PostgreSQL)'
	}

	const { db, closeDb } = await import('#db/client.ts')
	kit.onCleanup({ name: 'close the database', run: closeDb })
	const { prepareDatabase } = await import('#db/prepare.ts')
	;(await import('#app/utils/sealed-data.server.ts')).sealColumns()
	const { and, eq, isNull } = await import('drizzle-orm')
	const { qrCodes } = await import('#db/schema.ts')
	const { generateBatch } = await import('#app/domain/admin/batches/batches.server.ts')
	const { closeRenderWorkers } = await import('#app/domain/render/pool.server.ts')
	const { labelOrigin } = await import('#app/domain/admin/batches/sheet-pdf.server.ts')
	const { labelsPerPage, layoutById } = await import('#app/domain/admin/batches/layouts.ts')
	const { scanUrl } = await import('#app/domain/qr/codes.server.ts')
	const { decodeImages, decodePdfRegions, pdfInfo } = await import('#tests/zbar-all.ts')
	kit.onCleanup({ name: 'stop the render workers', run: closeRenderWorkers })
	const layout = layoutById(LAYOUT)
	if (!layout) throw new Error(`BENCH_BATCH_LAYOUT: no layout ${LAYOUT}`)

	await prepareDatabase(db, { jobQueues: (await import('#app/jobs/queues.ts')).JOB_QUEUES })
	const setupRss = process.memoryUsage().rss
	console.log(`bench:batch: ${COUNT} codes a format; PDF on ${layout.name}`)
	console.log(
		`machine: ${cpus().length} cores, load average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}; ${database}`,
	)
	console.log(`RSS: ${mb(setupRss)} MB with the app's modules and the database open\n`)

	type Run = {
		label: string
		format: (typeof ALL_FORMATS)[number]
		batchId: number
		codes: number
		body: Uint8Array
		seconds: number
		peakRss: number
	}
	const runs: Array<Run & { loopP99: number; loopMax: number; readP99: number }> = []
	// The first batch after a start also starts a worker (tsx compiles the builders) and meets cold code on both threads:
	// it is measured on its own, then every format once the server is warm.
	const plan = [{ label: 'pdf, cold', format: 'pdf' as const }, ...FORMATS.map((format) => ({ label: format, format }))]
	for (const { label, format } of plan) {
		// Meanwhile: the main thread's event-loop delay, its memory, and a read of one code by token (a scan's first query).
		const loop = monitorEventLoopDelay({ resolution: 10 })
		loop.enable()
		let peakRss = process.memoryUsage().rss
		const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20)
		const reads: number[] = []
		let reading = true
		const reader = (async () => {
			while (reading) {
				const at = performance.now()
				await db.select({ id: qrCodes.id }).from(qrCodes).where(eq(qrCodes.token, 'bench-no-such-token')).limit(1)
				reads.push(performance.now() - at)
				await new Promise((done) => setTimeout(done, 10))
			}
		})()
		const started = performance.now()
		const { batchId, codes, file } = await generateBatch({ count: COUNT, format, layout: LAYOUT, createdByUserId: null })
		const seconds = (performance.now() - started) / 1000
		reading = false
		await reader
		clearInterval(sampler)
		loop.disable()
		peakRss = Math.max(peakRss, process.memoryUsage().rss)
		runs.push({
			label,
			format,
			batchId,
			codes,
			body: file.body,
			seconds,
			peakRss,
			loopP99: loop.percentile(99) / 1e6,
			loopMax: loop.max / 1e6,
			readP99: percentile(reads, 99),
		})
	}
	// Before the checks below, which load their own tools.
	const maxRss = process.resourceUsage().maxRSS * 1024

	const JSZip = (await import('jszip')).default
	const { Resvg } = await import('@resvg/resvg-js')
	const rows = [
		['format', 'codes', 'wall s', 'target s', 'file MB', 'peak RSS MB', 'loop p99 ms', 'loop max ms', 'DB read p99 ms', 'decoded'],
	]
	const verdicts: string[] = []
	for (const { label, format, batchId, codes, body, seconds, peakRss, loopP99, loopMax, readP99 } of runs) {
		const stored = await db
			.select({ id: qrCodes.id, token: qrCodes.token })
			.from(qrCodes)
			.where(and(eq(qrCodes.batchId, batchId), isNull(qrCodes.userId)))
			.orderBy(qrCodes.id)
		const urls = stored.map((code) => scanUrl(code.token))
		const sample = Math.min(SAMPLE, codes)
		const picks = Array.from({ length: sample }, (_, i) => Math.round((i * (codes - 1)) / Math.max(1, sample - 1)))
		let decoded: string[][]
		if (format === 'pdf') {
			const regions = picks.map((i) => {
				const origin = labelOrigin(layout, i, { x: 0, y: 0 })
				return {
					page: Math.floor(i / labelsPerPage(layout)) + 1,
					xMm: origin.x,
					yMm: origin.y,
					widthMm: layout.labelWidthMm,
					heightMm: layout.labelHeightMm,
				}
			})
			decoded = await decodePdfRegions(body, regions)
			const pages = Number((await pdfInfo(body)).Pages)
			if (pages !== Math.ceil(codes / labelsPerPage(layout))) throw new Error(`the PDF has ${pages} pages`)
		} else {
			const zip = await JSZip.loadAsync(body)
			const name = (id: number) => (format === 'docx' ? `word/media/hmh-sticker-${id}.png` : `hmh-sticker-${id}.${format}`)
			const images = await Promise.all(
				picks.map(async (i) => {
					const entry = zip.file(name(stored[i]!.id))
					if (!entry) throw new Error(`${format}: ${name(stored[i]!.id)} is missing`)
					return format === 'svg' ? new Resvg(await entry.async('string')).render().asPng() : await entry.async('uint8array')
				}),
			)
			decoded = await decodeImages(images)
		}
		const good = picks.filter((i, k) => decoded[k]?.length === 1 && decoded[k]![0] === urls[i]).length
		// The targets are for a warm server; the cold row shows what the first batch after a start adds.
		const target = label === format ? TARGET_SECONDS[format] : undefined
		rows.push([
			label,
			String(codes),
			seconds.toFixed(2),
			target ? `≤ ${target}` : '',
			mb(body.byteLength),
			mb(peakRss),
			loopP99.toFixed(1),
			loopMax.toFixed(1),
			readP99.toFixed(1),
			`${good}/${picks.length}`,
		])
		if (target && seconds > target) verdicts.push(`${label}: ${seconds.toFixed(2)} s, over the ${target} s target`)
		if (good !== picks.length) verdicts.push(`${label}: only ${good} of ${picks.length} sampled codes decoded to their scan URL`)
		if (loopP99 > TARGET_P99_MS) verdicts.push(`${label}: the main thread's event loop p99 was over ${TARGET_P99_MS} ms`)
	}
	console.log(kit.table(rows))
	console.log(
		`\nprocess peak RSS (maxRSS, main thread and workers, before the decode checks): ${mb(maxRss)} MB (target ≤ ${TARGET_RSS_MB} MB)`,
	)
	if (maxRss / 1024 / 1024 > TARGET_RSS_MB) verdicts.push(`peak RSS ${mb(maxRss)} MB, over ${TARGET_RSS_MB} MB`)
	console.log(verdicts.length ? `\nMissed:\n  ${verdicts.join('\n  ')}` : '\nAll targets met.')
}

await kit.runBench('bench:batch', main)
