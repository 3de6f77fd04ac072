import { request as http } from '@playwright/test'
import { baseURL } from '../playwright.config.ts'
import { expect } from './fixtures.ts'

/** A customer with a claimed sticker places a free order through the spec's JSON calls; its confirmation number. */
export async function customerOrder(customer: { email: string; password: string }, pin: string) {
	const api = await http.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } })
	try {
		expect((await api.post('/login', { form: customer, maxRedirects: 0 })).status()).toBe(302)
		const claimed = await api.post('/api/pin/claim', { data: { pin } })
		expect(claimed.ok(), await claimed.text()).toBe(true)
		const { qrCodeId } = (await claimed.json()) as { qrCodeId: number }
		const item = {
			name: 'Small Medical QR Sticker (2x2 in)',
			quantity: 1,
			price: 0,
			color: '#DC2626',
			addSticker: false,
			transparentBackground: false,
			customText: '',
		}
		const address = {
			name: 'Ada Lovelace',
			address1: '1 Main St',
			address2: '',
			city: 'Springfield',
			state: 'IL',
			postalCode: '62701',
			country: 'US',
		}
		const order = await api.post('/api/create-shop-order', {
			data: {
				items: [item],
				subtotal: 0,
				discountCode: null,
				discountAmount: 0,
				shippingCost: 0,
				totalAmount: 0,
				shippingMethod: 'standard',
				shippingCountry: 'US',
				shippingAddress: address,
				selectedQrCodeId: qrCodeId,
			},
		})
		expect(order.status(), await order.text()).toBe(201)
		const { checkoutUrl } = (await order.json()) as { checkoutUrl: string }
		return new URL(checkoutUrl, baseURL).searchParams.get('order')!
	} finally {
		await api.dispose()
	}
}
