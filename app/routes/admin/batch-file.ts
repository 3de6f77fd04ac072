import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import { calibrationFile, generateBatch } from '#app/domain/admin/batches/batches.server.ts'
import { BatchFormSchema } from '#app/domain/admin/schemas.ts'
import { jsonError } from '#app/utils/api.server.ts'
import { DomainError, UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { fileResponse } from '#app/utils/download.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/batch-file'

const PAGE = '/admin/qr-management'
const FIELDS = ['count', 'format', 'layout', 'nudgeXMm', 'nudgeYMm'] as const

/**
 * The batch form's answer is the file itself (a download: the page stays as it is). A refusal goes back to the page,
 * which shows the message beside the field and keeps what was typed: the form lives there, not here, so the refusal is
 * a redirect carrying the typed values and the field at fault, not the form answered in place.
 */
export async function action(args: Route.ActionArgs) {
	const owner = await requireGrantedOwner(args)
	const submission = parseWithZod(await readPageForm(args.request), { schema: BatchFormSchema })
	let refusal: { field?: string; message: string; title: string }
	if (submission.status === 'success') {
		const batch = submission.value
		try {
			switch (batch.intent) {
				case 'calibration':
					return fileResponse(await calibrationFile(batch.layout, { x: batch.nudgeXMm, y: batch.nudgeYMm }))
				case 'generate':
				case undefined:
					return fileResponse((await generateBatch({ ...batch, createdByUserId: owner.id })).file)
				default: {
					const unknown: never = batch
					return unknown
				}
			}
		} catch (error) {
			if (!(error instanceof DomainError)) throw error
			refusal = { field: error.field, message: error.message, title: 'Generation Failed' }
		}
	} else {
		const [field, messages] = Object.entries(submission.error ?? {}).find(([, m]) => m?.length) ?? ['intent', [UNKNOWN_ACTION]]
		// An unknown button is not the batch's fault: there is no field to mark, so it is answered here.
		if (field === 'intent') return jsonError(400, UNKNOWN_ACTION)
		refusal = { field, message: messages![0]!, title: field === 'count' ? 'Invalid Quantity' : 'Generation Failed' }
	}
	const typed = Object.fromEntries(
		FIELDS.map((field) => [field, typeof submission.payload[field] === 'string' ? submission.payload[field].slice(0, 20) : '']),
	)
	const back = new URLSearchParams({ ...typed, ...(refusal.field ? { error: refusal.field } : {}) })
	return redirectWithToast(`${PAGE}?${back}#batch-title`, { type: 'error', title: refusal.title, description: refusal.message })
}

export function loader() {
	return redirect(PAGE)
}
