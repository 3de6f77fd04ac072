// What the shop's pages and the server both say, zod-free so the browser can use it without zod.

export const CHECKOUT_MESSAGES = {
	cannotCheckout: { title: 'Cannot Checkout', description: 'Please add items to cart and select a QR code' },
	addressRequired: { title: 'Address Required', description: 'Please complete your address information' },
	checkoutFailed: 'Checkout Failed',
	checkoutFailedFallback: 'Failed to process checkout',
	discountUnreachable: 'Failed to validate discount code',
	invalidDiscount: 'Invalid discount code',
	discountRemoved: { title: 'Discount Removed', description: 'Discount code has been removed from your order' },
} as const

export const ORDER_MESSAGES = {
	added: (name: string) => ({ title: 'Added to Cart', description: `${name} was added to your cart.` }),
} as const

export const TRACKING_MESSAGES = {
	numberRequired: { title: 'Confirmation Number Required', description: 'Please enter your confirmation number to track your order' },
	emailRequired: 'Please enter the e-mail address the order was placed with',
	found: 'Order Found!',
	notFound: {
		title: 'Order Not Found',
		description: 'No order matches that confirmation number and e-mail address. Please check both and try again.',
	},
} as const

/** Spec 002 §5, the request-products page (its path is ours). */
export const REQUEST_PAGE = '/request-products'

export const REQUEST_PRODUCT_MESSAGES = {
	urlRequired: { title: 'QR Code URL Required', description: 'Please enter your QR code URL to request products.' },
	invalidUrl: { title: 'Invalid URL', description: 'Please enter a valid QR code URL.' },
} as const
