import { parentPort } from 'node:worker_threads'
import { giveWayToMainThread } from '#app/utils/worker-thread.server.ts'
import { pdfWithoutActions } from './pdf-actions.ts'

/*
 * Cleaning one uploaded PDF (started by pdf.server.ts from this source file, through tsx): pdf-lib parses some files for
 * seconds without yielding, which must never hold up the main thread's responders, and a file that takes too long is
 * given up by ending this thread.
 */
export type PdfRequest = { buffer: ArrayBuffer }
export type PdfReply = { ok: true; buffer: ArrayBuffer | null } | { ok: false }

const port = parentPort
if (!port) throw new Error('pdf-worker.ts runs as a worker thread')

giveWayToMainThread()

port.once('message', async ({ buffer }: PdfRequest) => {
	try {
		const bytes = await pdfWithoutActions(new Uint8Array(buffer))
		const out = bytes ? bytes.slice().buffer : null
		port.postMessage({ ok: true, buffer: out } satisfies PdfReply, out ? [out] : [])
	} catch {
		port.postMessage({ ok: false } satisfies PdfReply)
	}
})
