import type { SubmissionResult } from '@conform-to/react'
import { data, type RouterContextProvider } from 'react-router'
import { DomainError } from '#app/utils/errors.ts'
import { combineHeaders } from './http.ts'
import { actionToast } from './toast.server.ts'

type Submission = {
	reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SubmissionResult<string[]>
}

export type ReplyErrorOptions<Extra extends Record<string, unknown>> = {
	/** The error toast's title; without one the refusal is shown only on the form. */
	toast?: string
	/** Where a refusal without a field of its own is shown; the form as a whole when unset. */
	field?: string
	/** Fields whose typed value is not sent back (a password). */
	hideFields?: string[]
	/** What the page's component reads beside `result` (the intent, the row). */
	extra?: Extra
	headers?: HeadersInit
	/**
	 * A 404 answered on the form like any other refusal, for a row the page listed that is gone since (a request, an
	 * account): the page stays, with the message. Without it a 404 is the not-found page.
	 */
	notFoundOnForm?: boolean
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
	if (error.status === 404 && !options.notFoundOnForm) throw data(error.message, { status: 404 })
	const field = error.field ?? options.field
	const result = submission.reply({
		...(field ? { fieldErrors: { [field]: [error.message] } } : { formErrors: [error.message] }),
		hideFields: options.hideFields,
	})
	const toast = options.toast
		? await actionToast(args.request, args.context, { type: 'error', title: options.toast, description: error.message })
		: undefined
	const retry = error.retryAfterSeconds ? { 'retry-after': String(error.retryAfterSeconds) } : undefined
	return data({ ...(options.extra as Extra), result }, { status: error.status, headers: combineHeaders(toast, retry, options.headers) })
}
