import { buildFile, type RenderJob } from '#app/domain/admin/batches/files.server.ts'
import { renderLockScreenPng, type LockScreenInput } from '#app/domain/cards/lock-screen.server.ts'
import { renderWalletCardPdf, type WalletCardInput } from '#app/domain/cards/wallet-card.server.ts'
import { renderQrPng, type QrRenderOptions } from '#app/domain/qr/render.server.ts'
import { pdfWithoutActions } from '#app/domain/uploads/pdf-actions.ts'

/**
 * What the renderers make: only plain data goes in (a renderer loads the renderers, never the database), and a file's
 * bytes come out; an uploaded PDF comes out without what a reader would run, or as null when there was nothing to remove.
 */
export type RenderTask =
	| { kind: 'batch-file'; job: RenderJob }
	| { kind: 'lock-screen'; input: LockScreenInput }
	| { kind: 'wallet-card'; input: WalletCardInput }
	| { kind: 'qr-png'; options: QrRenderOptions }
	| { kind: 'clean-pdf'; bytes: Uint8Array }

/** Runs one task on the calling thread: a renderer's whole job. */
export async function runTask(task: RenderTask): Promise<Uint8Array | null> {
	switch (task.kind) {
		case 'batch-file':
			return buildFile(task.job)
		case 'lock-screen':
			return renderLockScreenPng(task.input)
		case 'wallet-card':
			return renderWalletCardPdf(task.input)
		case 'qr-png':
			return new Uint8Array(renderQrPng(task.options))
		case 'clean-pdf':
			return pdfWithoutActions(task.bytes)
	}
}
