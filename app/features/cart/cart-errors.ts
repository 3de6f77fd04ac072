import type { SubmissionResult } from '@conform-to/react'

/** What a refused cart or shop form answers: the submission's reply (what was typed, and the messages by field). */
export type CartRefusal = { result?: SubmissionResult<string[]> } | undefined

/** The messages by field; those of the form as a whole under `form`. */
export function fieldErrorsOf(result: SubmissionResult<string[]> | undefined) {
	const errors: Record<string, string[]> = {}
	for (const [field, messages] of Object.entries(result?.error ?? {})) if (messages?.length) errors[field || 'form'] = messages
	return errors
}

/** The message no field of the cart shows: an unknown action, a product no longer offered, an order refused as a whole. */
export function formMessage(errors: Record<string, string[]>) {
	return errors.form ?? errors.intent ?? errors.productId
}

/** The product whose form was refused (its id as typed), so only its card shows the messages. */
export function refusedProduct(result: SubmissionResult<string[]> | undefined) {
	const value = (result?.initialValue as Record<string, unknown> | null | undefined)?.productId
	return typeof value === 'string' ? value : undefined
}
