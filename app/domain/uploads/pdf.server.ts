import { DomainError } from '#app/utils/errors.ts'
import { render } from '#app/domain/render/pool.server.ts'

/** A PDF that takes longer to clean than this is stored as sent (it is only ever served as a download to others). */
export const PDF_CLEAN_TIMEOUT_MS = 15_000

/**
 * The uploaded PDF without what a reader would run (see pdfWithoutActions), worked out by a renderer; null when it is to
 * be stored as sent: nothing to remove, or pdf-lib could not read it (encrypted, broken) in time. A full heavy-work pool
 * is a refusal (DomainError 503), not a file stored unchecked.
 */
export async function cleanPdf(bytes: Uint8Array, timeoutMs = PDF_CLEAN_TIMEOUT_MS): Promise<Uint8Array | null> {
	try {
		return await render({ kind: 'clean-pdf', bytes }, timeoutMs)
	} catch (error) {
		if (error instanceof DomainError) throw error
		return null
	}
}
