import { data } from 'react-router'
import { batchFile } from '#app/domain/admin/batches/batches.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { fileResponse } from '#app/utils/download.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/batch-download'

/** An earlier batch's file again (its codes still free to print). */
export async function loader({ params }: Route.LoaderArgs) {
	try {
		const file = await batchFile(Number(params.batchId))
		if (!file) throw data('Batch not found', { status: 404 })
		return fileResponse(file)
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return redirectWithToast('/admin/qr-management', { type: 'error', title: 'Generation Failed', description: error.message })
	}
}
