import { z } from 'zod'
import { idSchema } from '#app/domain/profiles/schemas.ts'
import { COUNTRIES, DEFAULT_COUNTRY, DEFAULT_METHOD, SHIPPING_METHODS } from './shipping.ts'
import { CHECKOUT_MESSAGES, REQUEST_PRODUCT_MESSAGES, TRACKING_MESSAGES } from './messages.ts'

// The shop's wording and address rules are zod-free, so the browser can use them without zod.
export * from './messages.ts'
export { addressFromSuggestion, type AddressSuggestion } from './shipping.ts'

const required = (message: string, max = 120) => z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`)
const optional = (max = 120) =>
	z
		.string()
		.trim()
		.max(max, `At most ${max} characters`)
		.optional()
		.transform((v) => v || undefined)

const COUNTRY_CODES = COUNTRIES.map((c) => c.code) as [string, ...string[]]

/** Spec 000 §5: name, address1, city and postal code are required; state and address2 are not. */
export const ShippingAddressSchema = z.object({
	name: required('Name is required', 100),
	address1: required('Address is required', 200),
	address2: optional(200),
	city: required('City is required', 100),
	state: optional(100),
	postalCode: required('Postal code is required', 20),
	country: z
		.string()
		.trim()
		.toUpperCase()
		.pipe(z.enum(COUNTRY_CODES, { error: 'Please choose a country from the list' }))
		.default(DEFAULT_COUNTRY),
})

export const DiscountCodeSchema = z.object({
	code: z
		.string({ error: 'Please enter a discount code' })
		.trim()
		.min(1, 'Please enter a discount code')
		.max(40, 'Invalid discount code')
		.toUpperCase(),
})

const SELECT_CODE = CHECKOUT_MESSAGES.cannotCheckout.description

/** The QR code an order is for: its id, or the checkout's `id:pin` option value, as a form or a JSON client sends it. */
export const SelectedCodeIdSchema = z
	.union([z.number(), z.string()], { error: SELECT_CODE })
	.transform((v) => String(v).trim().slice(0, 200).split(':')[0])
	.pipe(idSchema(SELECT_CODE) as z.ZodType<number, string | undefined>)

export const ShippingMethodSchema = z.enum(SHIPPING_METHODS, { error: 'Please choose a shipping method' }).default(DEFAULT_METHOD)

/** What the checkout form carries besides the cart. */
export const CheckoutSchema = ShippingAddressSchema.extend({
	shippingMethod: ShippingMethodSchema,
	selectedQrCodeId: SelectedCodeIdSchema,
	discountCode: optional(40).transform((v) => v?.toUpperCase()),
})

/** Spec 002 §5: the number must not be blank; the e-mail the order was placed with proves it is yours. */
export const TrackOrderSchema = z.object({
	confirmationNumber: z
		.string({ error: TRACKING_MESSAGES.numberRequired.description })
		.trim()
		.min(1, TRACKING_MESSAGES.numberRequired.description)
		.max(40, TRACKING_MESSAGES.notFound.description)
		.toUpperCase(),
	email: z
		.string({ error: TRACKING_MESSAGES.emailRequired })
		.trim()
		.max(254, TRACKING_MESSAGES.emailRequired)
		.pipe(z.email(TRACKING_MESSAGES.emailRequired)),
})

export const QrCodeUrlSchema = z
	.string({ error: REQUEST_PRODUCT_MESSAGES.urlRequired.description })
	.trim()
	.min(1, REQUEST_PRODUCT_MESSAGES.urlRequired.description)
	.max(500, REQUEST_PRODUCT_MESSAGES.invalidUrl.description)
	.pipe(z.url({ protocol: /^https?$/, error: REQUEST_PRODUCT_MESSAGES.invalidUrl.description }))
