// The batch form's words and defaults, without zod: the QR management page imports them.
import { MAX_BATCH } from '#app/domain/qr/batch.ts'
import { MAX_NUDGE_MM } from './layouts.ts'

/** The quantity the batch form starts with (spec 002 §9). */
export const BATCH_DEFAULT_COUNT = 10
export const INVALID_QUANTITY = `Please enter a quantity between 1 and ${MAX_BATCH}.`
export const UNKNOWN_LAYOUT = 'Please choose one of the label layouts.'
export const INVALID_NUDGE = `Please enter a whole number of millimetres from -${MAX_NUDGE_MM} to ${MAX_NUDGE_MM}.`
