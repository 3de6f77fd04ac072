import type { QrBatchFormat } from '#db/schema/admin.ts'
import type { BatchCode, Nudge } from './batch-code.ts'
import { layoutById } from './layouts.ts'

/*
 * The batch files, built from plain data by pure functions: the render worker runs them off the main thread, tests run
 * them directly. Every code is drawn by the house renderer's rules: square, error correction H, Medical Red on white.
 * Each format's builder is loaded when first asked for, so a worker holds only the libraries its jobs use, and the
 * main thread (which imports the PDF module for the calibration page) never loads docx or jszip.
 */
export type RenderJob = { format: QrBatchFormat; codes: BatchCode[]; layout: string; nudge: Nudge; title?: string }

export async function buildFile(job: RenderJob): Promise<Uint8Array> {
	switch (job.format) {
		case 'png':
			return (await import('./zips.server.ts')).buildPngZip(job.codes)
		case 'svg':
			return (await import('./zips.server.ts')).buildSvgZip(job.codes)
		case 'docx':
			return (await import('./word.server.ts')).buildDocx(job.codes, { title: job.title })
		case 'pdf': {
			const layout = layoutById(job.layout)
			if (!layout) throw new Error(`Unknown label layout ${job.layout}`)
			return (await import('./sheet-pdf.server.ts')).buildPdf(job.codes, layout, job.nudge, { title: job.title })
		}
	}
}
