import { z } from 'zod'

/** A cart button's `intent:line` value (`remove:<line key>`), read as the intent and the line it names. */
export function splitIntent(input: unknown) {
	if (!input || typeof input !== 'object') return input
	const { intent, ...rest } = input as Record<string, unknown>
	const [name = '', line = ''] = typeof intent === 'string' ? intent.split(':') : []
	return { ...rest, intent: name, line }
}

/** Which cart action a submission asks for, for the pending labels. */
export const CART_INTENT_NAME = z.preprocess(splitIntent, z.object({ intent: z.string() })).transform(({ intent }) => intent)
