import { parentPort } from 'node:worker_threads'
import { giveWayToMainThread } from '#app/utils/worker-thread.server.ts'
import { buildFile, type RenderJob } from './files.server.ts'

/*
 * The batch file builder's thread (started by render-pool.server.ts from this source file, through tsx): a thousand
 * codes take seconds of CPU, which must never hold up the main thread's responders. One job at a time; the bytes go
 * back as a transferred buffer, never copied.
 */
export type RenderRequest = { id: number; job: RenderJob }
export type RenderReply = { id: number; ok: true; buffer: ArrayBuffer } | { id: number; ok: false; message: string }

const port = parentPort
if (!port) throw new Error('render-worker.ts runs as a worker thread')

giveWayToMainThread()

port.on('message', async ({ id, job }: RenderRequest) => {
	try {
		const bytes = await buildFile(job)
		const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
		const buffer = whole ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer
		port.postMessage({ id, ok: true, buffer } satisfies RenderReply, [buffer])
	} catch (error) {
		const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
		port.postMessage({ id, ok: false, message } satisfies RenderReply)
	}
})
