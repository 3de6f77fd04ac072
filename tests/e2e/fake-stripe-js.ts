import type { Page } from '@playwright/test'

/** The card number Stripe's test mode declines; any other completes the payment. */
export const DECLINED_CARD = '4000000000000002'

/**
 * Stripe.js as the page loads it from js.stripe.com, which this machine cannot reach: the same globals and the calls
 * the checkout page makes (Stripe(key), elements({ clientSecret }), create('payment').mount(el), confirmPayment), with
 * a plain card field in place of Stripe's frame. A declined card answers Stripe's error; any other leaves for
 * return_url with the query Stripe adds.
 */
const SCRIPT = `
window.Stripe = Object.assign(function Stripe(key) {
	if (!/^pk_test_/.test(key)) throw new Error('Invalid publishable key')
	let secret = null
	return {
		elements(options) {
			secret = options.clientSecret
			return {
				create() {
					return {
						mount(target) {
							target.innerHTML = '<label for="fake-card">Card number</label><input id="fake-card" inputmode="numeric" autocomplete="cc-number">'
						},
					}
				},
			}
		},
		async confirmPayment({ confirmParams }) {
			const card = document.getElementById('fake-card').value.replace(/\\s/g, '')
			if (card === '${DECLINED_CARD}') return { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }
			const back = new URL(confirmParams.return_url)
			back.searchParams.set('payment_intent', secret.split('_secret_')[0])
			back.searchParams.set('payment_intent_client_secret', secret)
			back.searchParams.set('redirect_status', 'succeeded')
			window.location.assign(back.toString())
			return new Promise(() => {})
		},
	}
}, { version: 'endive' })
`

export async function serveFakeStripeJs(page: Page) {
	const loads: string[] = []
	await page.route('https://js.stripe.com/**', (route) => {
		loads.push(route.request().url())
		return route.fulfill({ status: 200, contentType: 'application/javascript', body: SCRIPT })
	})
	return loads
}
