import { freePort, startAppServer } from './app-server.ts'
import { DECLINED_CARD, serveFakeStripeJs } from './fake-stripe-js.ts'
import { expect, expectNoAxeViolations, test, timeLimit } from './fixtures.ts'
import { postWebhook, stripeSettings, succeededEvent } from './giving-kit.ts'
import { startSmtpServer } from './smtp-server.ts'
import { startStripeServer } from './stripe-server.ts'

test('with the publishable key, a guest pays in the card form: a decline says Payment Failed, then a good card returns, and the webhook confirms it', async ({
	page,
}, testInfo) => {
	test.setTimeout(timeLimit(120_000))
	const [smtp, stripe] = await Promise.all([startSmtpServer(), startStripeServer()])
	const app = await startAppServer(await freePort(), { ...stripeSettings(stripe, smtp), STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e' })
	const stripeJs = await serveFakeStripeJs(page)
	try {
		await page.goto(`${app.baseURL}/donate`)
		expect(stripeJs, 'no page but the checkout loads Stripe.js').toEqual([])
		await page.getByLabel('Advocate · $15').check()
		await page.getByLabel(/Add the card fee/).check()
		await page.getByRole('button', { name: 'Donate' }).click()
		await expect(page).toHaveURL(/\/checkout\?client_secret=pi_\w+_secret_\w+&amount=15\.76/)
		const intent = stripe.intents.at(-1)!
		expect(intent).toMatchObject({ amountCents: 1576, metadata: { kind: 'donation', tier: 'advocate', net_cents: '1500' } })
		await expect(page.getByText('Your gift: $15.76')).toBeVisible()
		await expect(page.getByLabel('Card number')).toBeVisible()
		expect(stripeJs).toHaveLength(1)
		await expectNoAxeViolations(page, testInfo)

		await page.getByLabel('Card number').fill(DECLINED_CARD)
		await page.getByRole('button', { name: 'Donate Now' }).click()
		const toast = page.getByRole('alert').filter({ hasText: 'Payment Failed' })
		await expect(toast).toContainText('Your card was declined.')
		// Spoken once (the toast); the message also stays beside the button, which it describes.
		await expect(page.locator('[role=alert], [role=status], [aria-live]').filter({ hasText: 'Your card was declined.' })).toHaveCount(1)
		await expect(page.getByRole('button', { name: 'Donate Now' })).toHaveAccessibleDescription('Your card was declined.')
		await expect(page).toHaveURL(/\/checkout\?/)

		await page.getByLabel('Card number').fill('4242 4242 4242 4242')
		await page.getByRole('button', { name: 'Donate Now' }).click()
		await expect(page).toHaveURL(new RegExp(`/donation-success\\?payment_intent=${intent.id}&`))
		await expect(page.getByText('Your payment is being confirmed.')).toBeVisible()

		const succeeded = succeededEvent(intent, 'card.donor@example.com')
		expect(await (await postWebhook(page, app.baseURL, succeeded)).json()).toMatchObject({ outcome: 'recorded' })
		await page.reload()
		await expect(page.getByText('Your gift of $15.76 is confirmed.')).toBeVisible()
		await expect.poll(() => smtp.received.filter((m) => m.to.includes('card.donor@example.com')).length).toBe(1)
	} finally {
		await app.stop()
		await Promise.all([smtp.close(), stripe.close()])
	}
})

test('with the publishable key, a signed-in donor on the tier page goes to the card form with the amount in cents', async ({ page }) => {
	test.setTimeout(timeLimit(120_000))
	const [smtp, stripe] = await Promise.all([startSmtpServer(), startStripeServer()])
	const app = await startAppServer(await freePort(), { ...stripeSettings(stripe, smtp), STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e' })
	await serveFakeStripeJs(page)
	const user = app.fixtures().users[0]!
	try {
		await page.goto(`${app.baseURL}/login?redirectTo=/support`)
		await page.getByLabel('Email').fill(user.email)
		await page.getByLabel('Password').fill(user.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(/\/support$/)
		// The amount is checked in the page before anything is sent once its JavaScript runs; until then the form posts.
		await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
		await page.getByLabel('Your amount (USD)').fill('0.50')
		await page.getByRole('button', { name: 'Give This Amount' }).click()
		await expect(page.getByRole('alert').filter({ hasText: 'Invalid Amount' })).toBeVisible()
		expect(stripe.intents).toEqual([])
		await page.getByRole('button', { name: 'Give $50' }).click()
		await expect(page).toHaveURL(/\/checkout\?client_secret=pi_\w+&amount=50\.00/)
		expect(stripe.intents.at(-1)).toMatchObject({ amountCents: 5000, email: user.email, metadata: { tier: 'champion' } })
		await expect(page.getByLabel('Card number')).toBeVisible()
	} finally {
		await app.stop()
		await Promise.all([smtp.close(), stripe.close()])
	}
})
