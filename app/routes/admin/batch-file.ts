import { redirect } from 'react-router'
import { calibrationFile, generateBatch } from '#app/domain/admin/batches/batches.server.ts'
import { BatchRequestSchema } from '#app/domain/admin/batches/schemas.ts'
import { DomainError } from '#app/utils/errors.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { fileResponse } from '#app/utils/download.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/batch-file'

const PAGE = '/admin/qr-management'
const FIELDS = ['count', 'format', 'layout', 'nudgeXMm', 'nudgeYMm'] as const

/**
 * The batch form's answer is the file itself (a download: the page stays as it is). A refusal goes back to the page,
 * which shows the message beside the field and keeps what was typed.
 */
export async function action(args: Route.ActionArgs) {
	const owner = await requireGrantedOwner(args)
	const form = await readPageForm(args.request)
	const intent = form.get('intent') === 'calibration' ? 'calibration' : 'generate'
	const typed = Object.fromEntries(FIELDS.map((field) => [field, String(form.get(field) ?? '').slice(0, 20)]))
	const refuse = (field: string | undefined, message: string, title: string) => {
		const back = new URLSearchParams({ ...typed, ...(field ? { error: field } : {}) })
		return redirectWithToast(`${PAGE}?${back}#batch-title`, { type: 'error', title, description: message })
	}
	const parsed = BatchRequestSchema.safeParse(intent === 'calibration' ? { ...typed, count: 1 } : typed)
	if (!parsed.success) {
		const issue = parsed.error.issues[0]!
		const field = String(issue.path[0] ?? '')
		return refuse(field, issue.message, field === 'count' ? 'Invalid Quantity' : 'Generation Failed')
	}
	const { layout, nudgeXMm, nudgeYMm } = parsed.data
	try {
		if (intent === 'calibration') return fileResponse(await calibrationFile(layout, { x: nudgeXMm, y: nudgeYMm }))
		return fileResponse((await generateBatch({ ...parsed.data, createdByUserId: owner.id })).file)
	} catch (error) {
		if (error instanceof DomainError) return refuse(error.field, error.message, 'Generation Failed')
		throw error
	}
}

export function loader() {
	return redirect(PAGE)
}
