import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import { tsWorkerBootstrap } from '#app/utils/worker-thread.server.ts'
import type { PdfReply, PdfRequest } from './pdf-worker.ts'

const WORKER_FILE = resolve(process.cwd(), 'app/domain/uploads/pdf-worker.ts')
/** A PDF that takes longer to clean than this is stored as sent (it is only ever served as a download to others). */
export const PDF_CLEAN_TIMEOUT_MS = 15_000
/** pdf-lib holds a whole document in memory, several times its size: a 10 MB upload fits well below this. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 }

/** One PDF is cleaned at a time (a small server has two cores, and the responders need one); others wait their turn. */
let queue: Promise<unknown> = Promise.resolve()

/**
 * The uploaded PDF without what a reader would run (see pdfWithoutActions), worked out on a worker thread; null when
 * it is to be stored as sent: nothing to remove, or pdf-lib could not read it (encrypted, broken) in time.
 */
export function cleanPdf(bytes: Uint8Array, timeoutMs = PDF_CLEAN_TIMEOUT_MS): Promise<Uint8Array | null> {
	const turn = queue.then(() => inWorker(bytes, timeoutMs))
	queue = turn.catch(() => undefined)
	return turn
}

function inWorker(bytes: Uint8Array, timeoutMs: number) {
	if (!existsSync(WORKER_FILE)) return Promise.resolve(null)
	return new Promise<Uint8Array | null>((done) => {
		const worker = new Worker(tsWorkerBootstrap(WORKER_FILE), { eval: true, resourceLimits: RESOURCE_LIMITS, stdout: true, stderr: true })
		// pdf-lib reports every odd object it skips; none of that is worth a log line.
		worker.stdout.resume()
		worker.stderr.resume()
		const finish = (result: Uint8Array | null) => {
			clearTimeout(timer)
			done(result)
			void worker.terminate()
		}
		const timer = setTimeout(() => finish(null), timeoutMs)
		worker.once('message', (reply: PdfReply) => finish(reply.ok && reply.buffer ? new Uint8Array(reply.buffer) : null))
		worker.once('error', () => finish(null))
		worker.once('exit', () => finish(null))
		const copy = bytes.slice().buffer
		worker.postMessage({ buffer: copy } satisfies PdfRequest, [copy])
	})
}
