import type { SubmissionResult } from '@conform-to/react'
import { data, type RouterContextProvider } from 'react-router'
import { DomainError, type DomainStatus } from '#app/utils/errors.ts'
import { combineHeaders } from './http.ts'
import { actionToast } from './toast.server.ts'

type Submission = {
	reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SubmissionResult<string[]>
}

export type ReplyErrorOptions<Extra extends Record<string, unknown>> = {
	/**
	 * The error toast; without one the refusal is shown only on the form. A string is its title, with the refusal's
	 * message as its description; an object sets either part (a page's own fixed wording) and leaves out a title it
	 * does not give.
	 */
	toast?: string | { title?: string; description?: string }
	/** Where a refusal without a field of its own is shown; the form as a whole when unset. */
	field?: string
	/** Fields whose typed value is not sent back (a password). */
	hideFields?: string[]
	/** What the page's component reads beside `result` (the intent, the row). */
	extra?: Extra
	headers?: HeadersInit
	/**
	 * The page's own status for some refusals, where a form answers differently from the API (a taken address is a 400
	 * beside its field, a 409 in JSON). A 404 given a status here is answered on the form, not as the not-found page.
	 */
	statuses?: Partial<Record<DomainStatus, number>>
}

/**
 * The one way a page action answers a refused domain operation: the form comes back with what was typed and the
 * message beside its field, an optional toast, the refusal's status and Retry-After. A 404 is the not-found page
 * (unless `notFoundOnForm`); anything that is not a `DomainError` is not a refusal and is thrown on.
 */
export async function replyError<Extra extends Record<string, unknown> = Record<string, never>>(
	args: { request: Request; context: Readonly<RouterContextProvider> },
	submission: Submission,
	error: unknown,
	options: ReplyErrorOptions<Extra> = {},
) {
	if (!(error instanceof DomainError)) throw error
	const status = options.statuses?.[error.status]
	if (error.status === 404 && status === undefined) throw data(error.message, { status: 404 })
	const field = error.field ?? options.field
	const result = submission.reply({
		...(field ? { fieldErrors: { [field]: [error.message] } } : { formErrors: [error.message] }),
		hideFields: options.hideFields,
	})
	const wording = typeof options.toast === 'string' ? { title: options.toast } : options.toast
	const toast = wording
		? await actionToast(args.request, args.context, {
				type: 'error',
				title: wording.title,
				description: wording.description ?? error.message,
			})
		: undefined
	const retry = error.retryAfterSeconds ? { 'retry-after': String(error.retryAfterSeconds) } : undefined
	return data(
		{ ...(options.extra as Extra), result },
		{ status: status ?? error.status, headers: combineHeaders(toast, retry, options.headers) },
	)
}
