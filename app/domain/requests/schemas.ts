import { z } from 'zod'
import { HONEYPOT_FIELD } from '#app/utils/honeypot.ts'
import { EmailSchema } from '#app/domain/accounts/schemas.ts'

export const MAX_CODES_PER_REQUEST = 10

/** Left empty by people (it is hidden); bots that fill every field give themselves away. */

export const REQUEST_RECEIVED = 'Your QR code request has been received.'
export const REQUEST_FAILED = 'Failed to submit request. Please try again.'

const required = (message: string, max: number, name: string) =>
	z.string({ error: message }).trim().min(1, message).max(max, `${name} must be at most ${max} characters`)

const QuantitySchema = z
	.number({ error: 'Quantity must be at least 1' })
	.int('Quantity must be a whole number')
	.min(1, 'Quantity must be at least 1')
	.max(MAX_CODES_PER_REQUEST, `Maximum ${MAX_CODES_PER_REQUEST} QR codes per request`)

const AddressFields = {
	streetAddress: required('Street address is required', 200, 'Street address'),
	city: required('City is required', 100, 'City'),
	state: required('State/Province is required', 100, 'State/Province'),
	postalCode: required('Postal code is required', 20, 'Postal code'),
	country: required('Country is required', 100, 'Country'),
}

const CommonFields = {
	fullName: required('Full name is required', 100, 'Full name'),
	email: EmailSchema,
	quantity: QuantitySchema,
	notes: z.string().trim().max(1000, 'Notes must be at most 1000 characters').optional(),
	[HONEYPOT_FIELD]: z.string().max(500).optional(),
}

/** The form at /request-qr: one flat set of fields (spec 002 §5). */
export const QrRequestSchema = z.object({ ...CommonFields, ...AddressFields })
export type QrRequestInput = z.infer<typeof QrRequestSchema>

/**
 * POST /api/qr-request (spec 002 §7): the same fields with the address nested under shippingAddress.
 * A missing address reports each of its fields; a quantity sent as a numeric string is read as a number.
 */
export const QrRequestApiSchema = z
	.object({
		...CommonFields,
		quantity: z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), QuantitySchema),
		shippingAddress: z.preprocess((v) => v ?? {}, z.object(AddressFields)),
	})
	.transform(({ shippingAddress, ...rest }): QrRequestInput => ({ ...rest, ...shippingAddress }))
