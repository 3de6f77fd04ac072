import type { RenderJob } from '#app/domain/admin/batches/files.server.ts'
import type { FridgeSheetInput } from '#app/domain/cards/fridge-sheet.server.ts'
import type { LockScreenInput } from '#app/domain/cards/lock-screen.server.ts'
import type { WalletCardInput } from '#app/domain/cards/wallet-card.server.ts'
import type { QrRenderOptions } from '#app/domain/qr/render.server.ts'
import type { Reencoded, SmallFormat } from '#app/domain/uploads/images.server.ts'

/**
 * What the renderers make: only plain data goes in (a renderer loads the renderers, never the database), and a file's
 * bytes come out; an uploaded PDF comes out without what a reader would run, or as null when there was nothing to
 * remove; an uploaded image comes out re-encoded (or refused), and small for the responder page, the wallet card and the fridge sheet.
 */
export type RenderTask =
	| { kind: 'batch-file'; job: RenderJob }
	| { kind: 'lock-screen'; input: LockScreenInput }
	| { kind: 'wallet-card'; input: WalletCardInput }
	| { kind: 'fridge-sheet'; input: FridgeSheetInput }
	| { kind: 'qr-png'; options: QrRenderOptions }
	| { kind: 'clean-pdf'; bytes: Uint8Array }
	| { kind: 'reencode-image'; bytes: Uint8Array; mime: string }
	| { kind: 'small-pictures'; bytes: Uint8Array }

/** What each kind of task answers. */
export type RenderResults = {
	'batch-file': Uint8Array
	'lock-screen': Uint8Array
	'wallet-card': Uint8Array
	'fridge-sheet': Uint8Array
	'qr-png': Uint8Array
	'clean-pdf': Uint8Array | null
	'reencode-image': Reencoded
	'small-pictures': Record<SmallFormat, Uint8Array>
}

/**
 * Runs one task on the calling thread: a renderer's whole job. Each kind loads its own modules when first asked for
 * (sharp, pdf-lib, resvg each take most of a second to load on a small machine), so a renderer starts quickly.
 */
export async function runTask(task: RenderTask): Promise<RenderResults[RenderTask['kind']]> {
	switch (task.kind) {
		case 'batch-file':
			return (await import('#app/domain/admin/batches/files.server.ts')).buildFile(task.job)
		case 'lock-screen':
			return (await import('#app/domain/cards/lock-screen.server.ts')).renderLockScreenPng(task.input)
		case 'wallet-card':
			return (await import('#app/domain/cards/wallet-card.server.ts')).renderWalletCardPdf(task.input)
		case 'fridge-sheet':
			return (await import('#app/domain/cards/fridge-sheet.server.ts')).renderFridgeSheetPdf(task.input)
		case 'qr-png':
			return new Uint8Array((await import('#app/domain/qr/render.server.ts')).renderQrPng(task.options))
		case 'clean-pdf':
			return (await import('#app/domain/uploads/pdf-actions.ts')).pdfWithoutActions(task.bytes)
		case 'reencode-image':
			return (await import('#app/domain/uploads/images.server.ts')).reencodeImage(task.bytes, task.mime)
		case 'small-pictures':
			return (await import('#app/domain/uploads/images.server.ts')).smallPictures(task.bytes)
	}
}
