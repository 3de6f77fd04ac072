import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { listBatches } from '#app/domain/admin/batches/batches.server.ts'
import { findAccounts, setLegacyAccess } from '#app/domain/admin/legacy-access.server.ts'
import { fulfillQrRequest, listQrRequests, parseCodeList } from '#app/domain/admin/requests-queue.server.ts'
import { qrStats } from '#app/domain/admin/stats.server.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { QrManagementActionSchema } from '#app/domain/admin/schemas.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'

type Args = { request: Request; context: Readonly<RouterContextProvider> }

const HERE = '/admin/qr-management'
const MAX_QUERY = 200
const BATCH_FIELDS = ['count', 'format', 'layout', 'nudgeXMm', 'nudgeYMm'] as const

export async function qrManagementLoader(args: Args) {
	await requireGrantedOwner(args)
	const search = new URL(args.request.url).searchParams
	const query = (search.get('account') ?? '').trim().slice(0, MAX_QUERY)
	// A refused batch comes back here with what was typed and the field at fault (batch-file.ts).
	const typed = Object.fromEntries(BATCH_FIELDS.map((field) => [field, (search.get(field) ?? '').slice(0, 20)]).filter(([, v]) => v))
	const batchError = BATCH_FIELDS.find((field) => field === search.get('error')) ?? null
	const [stats, batches, requests, accounts] = await Promise.all([
		qrStats(),
		listBatches(),
		listQrRequests({ status: 'all', limit: 50 }),
		query ? findAccounts(query) : Promise.resolve(null),
	])
	return { stats, batches, requests, accounts, query, typed, batchError }
}

export async function qrManagementAction(args: Args) {
	const owner = await requireGrantedOwner(args)
	const { request, context } = args
	const submission = parseWithZod(await readPageForm(request), { schema: QrManagementActionSchema })
	const typedIntent = submission.payload.intent
	const intent = typedIntent === 'fulfil' || typedIntent === 'legacy' ? typedIntent : null
	const toast = intent === 'fulfil' ? 'Fulfillment Failed' : 'Update Failed'
	if (submission.status !== 'success') {
		const message = Object.values(submission.error ?? {}).find((messages) => messages?.length)?.[0] ?? UNKNOWN_ACTION
		const headers = await actionToast(request, context, { type: 'error', title: toast, description: message })
		return data({ intent, result: submission.reply() }, { status: 400, headers })
	}
	const action = submission.value
	try {
		switch (action.intent) {
			case 'fulfil': {
				const qrCodeIds = action.qrCodeIds?.trim() ? parseCodeList(action.qrCodeIds) : []
				const result = await fulfillQrRequest(action.requestId, { qrCodeIds, notify: action.notify === 'on', actorUserId: owner.id })
				const sent = result.notified ? ' The requester was told by e-mail.' : ''
				return redirectWithToast(HERE, {
					type: 'success',
					title: 'Request Fulfilled',
					description: `Request #${action.requestId} is marked completed.${sent}`,
				})
			}
			case 'legacy': {
				const on = action.on === 'true'
				const account = await setLegacyAccess(action.userId, on, owner.id)
				const back = `${HERE}?account=${encodeURIComponent(action.account ?? '')}#legacy`
				return redirectWithToast(back, {
					type: 'success',
					title: on ? 'Self-generation turned on' : 'Self-generation turned off',
					description: `${account.email} ${on ? 'may now make' : 'can no longer make'} their own QR codes.`,
				})
			}
			default:
				return action satisfies never
		}
	} catch (error) {
		// A request's refusal is shown beside the codes typed for it.
		const field = action.intent === 'fulfil' ? 'qrCodeIds' : undefined
		// A request or account gone since the page was drawn is said there, not as the not-found page.
		return replyError(args, submission, error, { toast, field, extra: { intent: action.intent }, statuses: { 404: 404 } })
	}
}
