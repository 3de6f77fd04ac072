import { request } from 'node:http'

/*
 * The downloading account of `npm run bench:scan` with BENCH_DURING_DOWNLOADS, in a process of its own so that its
 * traffic never shares an event loop with the load generator that measures the responder page. Started with
 * BENCH_DL_PORT, BENCH_DL_COOKIE, BENCH_DL_PATH and BENCH_DL_SENDERS; each sender sends GET BENCH_DL_PATH as soon as it
 * has its answer, or after the Retry-After of a 429 or 503. A line on stdin stops it: the senders finish their requests,
 * and one JSON line goes to stdout: the count of each status, the bytes downloaded and each download's milliseconds.
 */

const port = Number(process.env.BENCH_DL_PORT)
const cookie = process.env.BENCH_DL_COOKIE ?? ''
const path = process.env.BENCH_DL_PATH ?? '/'
const senders = Number(process.env.BENCH_DL_SENDERS) || 16

type Answer = { status: number; retryAfter: number; bytes: number }

function get(): Promise<Answer> {
	return new Promise((done, fail) => {
		const sent = request({ host: '127.0.0.1', port, path, headers: { cookie, accept: 'image/png' }, agent: false }, (response) => {
			let bytes = 0
			response.on('data', (chunk: Buffer) => (bytes += chunk.length))
			response.on('error', fail)
			response.on('end', () => done({ status: response.statusCode ?? 0, retryAfter: Number(response.headers['retry-after']) || 1, bytes }))
		})
		sent.on('error', fail)
		sent.end()
	})
}

const statuses: Record<number, number> = {}
const madeMs: number[] = []
let bytes = 0
let running = true
let failure: string | null = null

async function sender() {
	while (running && !failure) {
		const started = performance.now()
		const answer = await get().catch((error: unknown) => {
			failure = `GET ${path} failed: ${error instanceof Error ? error.message : String(error)}`
			return null
		})
		if (!answer) return
		statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
		if (answer.status === 200) {
			bytes += answer.bytes
			madeMs.push(performance.now() - started)
		} else if (answer.status === 429 || answer.status === 503) await new Promise((resolve) => setTimeout(resolve, answer.retryAfter * 1000))
		else failure = `GET ${path} answered ${answer.status}`
	}
}

const loops = Array.from({ length: senders }, sender)
process.stdin.once('data', async () => {
	running = false
	await Promise.all(loops)
	process.stdout.write(`${JSON.stringify({ statuses, bytes, madeMs, failure })}\n`)
	process.exit(0)
})
