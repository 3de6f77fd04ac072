import { z } from 'zod'
import { idSchema } from '#app/domain/profiles/schemas.ts'
import { COUNTRIES, DEFAULT_COUNTRY, DEFAULT_METHOD } from './shipping.ts'
import type { AddressSuggestion } from '#app/utils/address-suggestion.ts'

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

const SELECT_CODE = 'Please add items to cart and select a QR code'

/** What the checkout form carries besides the cart. */
export const CheckoutSchema = ShippingAddressSchema.extend({
	shippingMethod: z.enum(['standard', 'express', 'overnight'], { error: 'Please choose a shipping method' }).default(DEFAULT_METHOD),
	selectedQrCodeId: z
		.string({ error: SELECT_CODE })
		.trim()
		.max(200, SELECT_CODE)
		.transform((v) => v.split(':')[0])
		.pipe(idSchema(SELECT_CODE) as z.ZodType<number, string | undefined>),
	discountCode: optional(40).transform((v) => v?.toUpperCase()),
})

export const CHECKOUT_MESSAGES = {
	cannotCheckout: { title: 'Cannot Checkout', description: 'Please add items to cart and select a QR code' },
	addressRequired: { title: 'Address Required', description: 'Please complete your address information' },
	checkoutFailed: 'Checkout Failed',
	checkoutFailedFallback: 'Failed to process checkout',
	discountUnreachable: 'Failed to validate discount code',
	invalidDiscount: 'Invalid discount code',
	discountRemoved: { title: 'Discount Removed', description: 'Discount code has been removed from your order' },
} as const

export type { AddressSuggestion }

/** Spec 000 §3: the parts of a suggestion's address, whichever names the service used. */
export function addressFromSuggestion(suggestion: AddressSuggestion) {
	const a = suggestion.address
	const pick = (...keys: string[]) => keys.map((k) => a[k]).find((v) => v && v.trim())?.trim()
	const number = pick('house_number', 'building_number')
	const street = pick('road', 'street')
	return {
		address1: [number, street].filter(Boolean).join(' ') || suggestion.display_name.split(',')[0]!.trim(),
		city: pick('city', 'town', 'village', 'municipality'),
		state: pick('state', 'province', 'region', 'county'),
		postalCode: pick('postcode', 'postal_code', 'zip'),
		country: pick('country'),
	}
}

export const ORDER_MESSAGES = {
	added: (name: string) => ({ title: 'Added to Cart', description: `${name} was added to your cart.` }),
} as const

export const TRACKING_MESSAGES = {
	numberRequired: { title: 'Confirmation Number Required', description: 'Please enter your confirmation number to track your order' },
	emailRequired: 'Please enter the e-mail address the order was placed with',
	found: 'Order Found!',
	notFound: { title: 'Order Not Found', description: 'No order matches that confirmation number and e-mail address. Please check both and try again.' },
} as const

/** Spec 002 §5: the number must not be blank; the e-mail the order was placed with proves it is yours. */
export const TrackOrderSchema = z.object({
	confirmationNumber: z
		.string({ error: TRACKING_MESSAGES.numberRequired.description })
		.trim()
		.min(1, TRACKING_MESSAGES.numberRequired.description)
		.max(40, TRACKING_MESSAGES.notFound.description)
		.toUpperCase(),
	email: z.string({ error: TRACKING_MESSAGES.emailRequired }).trim().max(254, TRACKING_MESSAGES.emailRequired).pipe(z.email(TRACKING_MESSAGES.emailRequired)),
})

/** Spec 002 §5, the request-products page (its path is ours). */
export const REQUEST_PAGE = '/request-products'

export const REQUEST_PRODUCT_MESSAGES = {
	urlRequired: { title: 'QR Code URL Required', description: 'Please enter your QR code URL to request products.' },
	invalidUrl: { title: 'Invalid URL', description: 'Please enter a valid QR code URL.' },
} as const

export const QrCodeUrlSchema = z
	.string({ error: REQUEST_PRODUCT_MESSAGES.urlRequired.description })
	.trim()
	.min(1, REQUEST_PRODUCT_MESSAGES.urlRequired.description)
	.max(500, REQUEST_PRODUCT_MESSAGES.invalidUrl.description)
	.pipe(z.url({ protocol: /^https?$/, error: REQUEST_PRODUCT_MESSAGES.invalidUrl.description }))
