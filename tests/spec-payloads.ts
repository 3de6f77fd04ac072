/** Spec 000 §7's POST /api/create-shop-order body as its client sends it: a small sticker, every price and total 0. */
export function specShopOrder(selectedQrCodeId: number | string, { quantity = 1 } = {}) {
	return {
		items: [
			{
				name: 'Small Medical QR Sticker (2x2 in)',
				quantity,
				price: 0,
				color: '#DC2626',
				addSticker: false,
				transparentBackground: false,
				customText: '',
			},
		],
		subtotal: 0,
		discountCode: null,
		discountAmount: 0,
		shippingCost: 0,
		totalAmount: 0,
		shippingMethod: 'standard',
		shippingCountry: 'US',
		shippingAddress: {
			name: 'Ada Lovelace',
			address1: '1 Main St',
			address2: '',
			city: 'Springfield',
			state: 'IL',
			postalCode: '62701',
			country: 'US',
		},
		selectedQrCodeId,
	}
}
