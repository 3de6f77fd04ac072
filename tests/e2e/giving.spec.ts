import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { freePort, startAppServer } from './app-server.ts'
import { expect, expectNoAxeViolations, signIn, test, timeLimit } from './fixtures.ts'
import { paidEvent, postWebhook, stripeSettings } from './giving-kit.ts'
import { startSmtpServer } from './smtp-server.ts'
import { startStripeServer } from './stripe-server.ts'

test('without Stripe settings the giving links lead to a page that says so plainly and names the contact', async ({
	page,
	person,
}, testInfo) => {
	await page.goto('/')
	await page.getByRole('link', { name: 'Support Our Mission' }).first().click()
	await expect(page).toHaveURL(/\/donate/)
	await expect(page.getByRole('heading', { name: 'Online giving is not set up on this server' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'support@hitmehelpers.org' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	for (const path of ['/donation-success', '/donate?tier=custom&amount=25']) expect((await page.goto(path))?.status(), path).toBe(200)
	// Monthly giving and the tier page say it before anyone signs in, and offer no plan to give.
	for (const path of ['/pricing', '/subscribe?plan=basic', '/support']) {
		await page.goto(path)
		await expect(page.getByRole('heading', { name: 'Online giving is not set up on this server' }), path).toBeVisible()
		await expect(page.getByRole('link', { name: /monthly$/ }), path).toHaveCount(0)
		await expect(page.getByRole('button', { name: /^Give/ }), path).toHaveCount(0)
	}
	await expectNoAxeViolations(page, testInfo)
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByRole('link', { name: 'Donations' }).click()
	await expect(page.getByRole('heading', { name: 'Online giving is not set up on this server' })).toBeVisible()
})

test('a guest gives $15: Stripe’s page, the signed webhook (a replay and a forgery change nothing), the receipt and the thank-you', async ({
	page,
}, testInfo) => {
	test.setTimeout(timeLimit(120_000))
	const [smtp, stripe] = await Promise.all([startSmtpServer(), startStripeServer()])
	const app = await startAppServer(await freePort(), stripeSettings(stripe, smtp))
	try {
		await page.goto(`${app.baseURL}/donate`)
		await expectNoAxeViolations(page, testInfo)
		await page.getByLabel('Custom: your own amount').check()
		// By keyboard: Donate stays in the tab order, and pressing it says what is wrong beside the amount, which takes
		// the focus; the title says there is an error.
		const amount = page.getByLabel('Custom amount (USD)')
		await amount.fill('0.5')
		await amount.press('Tab')
		await page.keyboard.press('Tab')
		await expect(page.getByRole('button', { name: 'Donate' })).toBeFocused()
		await page.keyboard.press('Enter')
		await expect(amount).toHaveAccessibleDescription(/Please enter a valid donation amount of at least \$1\.$/)
		await expect(amount).toHaveAttribute('aria-invalid', 'true')
		await expect(amount).toBeFocused()
		await expect(page).toHaveTitle(/^Error: Donate · /)
		await page.getByLabel('Advocate · $15').check()
		await page.getByRole('button', { name: 'Donate' }).click()
		await expect(page.getByRole('heading', { name: 'Test checkout: $15.00' })).toBeVisible()
		const session = stripe.sessions.at(-1)!
		expect(session.metadata).toMatchObject({ kind: 'donation', tier: 'advocate', net_cents: '1500' })

		const event = paidEvent(session, 'guest.donor@example.com', 1500)
		expect((await postWebhook(page, app.baseURL, event, 'whsec_forged')).status()).toBe(400)
		expect(await (await postWebhook(page, app.baseURL, event)).json()).toMatchObject({ outcome: 'recorded' })
		expect(await (await postWebhook(page, app.baseURL, event)).json()).toMatchObject({ outcome: 'duplicate' })

		await page.getByRole('link', { name: 'Pay' }).click()
		await expect(page).toHaveURL(/\/donation-success\?session_id=cs_test_/)
		await expect(page.getByText('Your gift of $15.00 is confirmed.')).toBeVisible()
		await expectNoAxeViolations(page, testInfo)
		await expect.poll(() => smtp.received.filter((m) => m.to.includes('guest.donor@example.com')).length).toBe(1)
		const receipt = smtp.received.find((m) => m.to.includes('guest.donor@example.com'))!
		expect(receipt.subject).toBe('Your donation receipt from Hit Me Helpers Foundation')
		expect(receipt.text).toContain('tax ID 12-3456789')
		expect(receipt.text).toContain('No goods or services were provided in exchange for this contribution.')
	} finally {
		await app.stop()
		await Promise.all([smtp.close(), stripe.close()])
	}
})

test('a signed-in donor gives $50, then finds it in Your Giving and in the year-end PDF', async ({ page }) => {
	test.setTimeout(timeLimit(120_000))
	const [smtp, stripe] = await Promise.all([startSmtpServer(), startStripeServer()])
	const app = await startAppServer(await freePort(), stripeSettings(stripe, smtp))
	const user = app.fixtures().users[0]!
	try {
		await page.goto(`${app.baseURL}/login`)
		await page.getByLabel('Email').fill(user.email)
		await page.getByLabel('Password').fill(user.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(/\/dashboard$/)
		await page.goto(`${app.baseURL}/donate?tier=champion`)
		await page.getByRole('button', { name: 'Donate' }).click()
		await expect(page.getByRole('heading', { name: 'Test checkout: $50.00' })).toBeVisible()
		const session = stripe.sessions.at(-1)!
		expect(session.email).toBe(user.email)
		expect((await postWebhook(page, app.baseURL, paidEvent(session, user.email, 5000))).status()).toBe(200)
		await page.getByRole('link', { name: 'Pay' }).click()
		await expect(page.getByText('Your gift of $50.00 is confirmed.')).toBeVisible()
		await page.getByRole('link', { name: 'Go to Dashboard' }).click()
		await page.goto(`${app.baseURL}/dashboard/profile`)
		await page.getByRole('link', { name: 'See Your Giving' }).click()
		const row = page.getByRole('row').filter({ hasText: '$50.00' })
		await expect(row).toBeVisible()
		const receipt = (await row.getByRole('cell').nth(1).textContent())!
		const year = new Date().getUTCFullYear()
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('link', { name: `Statement ${year} (PDF)` }).click(),
		])
		expect(download.suggestedFilename()).toBe(`giving-statement-${year}.pdf`)
		const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: readFileSync((await download.path())!) }).toString('utf8')
		expect(text).toContain(receipt)
		expect(text).toContain(`Total given in ${year}: $50.00`)
	} finally {
		await app.stop()
		await Promise.all([smtp.close(), stripe.close()])
	}
})

test('the tier page: a signed-out donor signs in and comes back to the same card, then on to Stripe; out-of-range amounts are refused', async ({
	page,
}, testInfo) => {
	test.setTimeout(timeLimit(120_000))
	const [smtp, stripe] = await Promise.all([startSmtpServer(), startStripeServer()])
	const app = await startAppServer(await freePort(), stripeSettings(stripe, smtp))
	const user = app.fixtures().users[0]!
	try {
		// With giving set up, a plan signs in first; /subscribe signed out is the sign-in page (spec 000's route table).
		await page.goto(`${app.baseURL}/pricing`)
		await expect(page.getByRole('link', { name: 'Give Basic monthly' })).toHaveAttribute('href', /^\/login\?redirectTo=/)
		await page.goto(`${app.baseURL}/subscribe?plan=basic`)
		await expect(page.getByRole('heading', { name: 'Returning User' })).toBeVisible()
		await page.goto(`${app.baseURL}/support`)
		await expectNoAxeViolations(page, testInfo)
		await expect(page.getByRole('heading', { name: 'Free' })).toBeVisible()
		await page.getByRole('button', { name: 'Give $15' }).click()
		await expect(page).toHaveURL(/\/login\?redirectTo=/)
		await page.getByLabel('Email').fill(user.email)
		await page.getByLabel('Password').fill(user.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(/\/support\?tier=advocate$/)
		expect(stripe.sessions).toEqual([])
		await page.getByRole('button', { name: 'Give $15' }).click()
		await expect(page.getByRole('heading', { name: 'Test checkout: $15.00' })).toBeVisible()
		expect(stripe.sessions.at(-1)).toMatchObject({ email: user.email, metadata: { tier: 'advocate', net_cents: '1500' } })

		await page.goto(`${app.baseURL}/dashboard?dialog=support`)
		const dialog = page.getByRole('dialog', { name: 'Support Our Mission' })
		await expectNoAxeViolations(page, testInfo)
		await dialog.getByLabel('Your amount (USD)').fill('20000')
		await dialog.getByRole('button', { name: 'Give This Amount' }).click()
		await expect(page.getByText('Please contact us directly for donations over $10,000.').first()).toBeVisible()
		await expect(page.getByLabel('Your amount (USD)')).toHaveAttribute('aria-invalid', 'true')
		expect(stripe.sessions).toHaveLength(1)
		await page.getByLabel('Your amount (USD)').fill('12.50')
		await page.getByRole('button', { name: 'Give This Amount' }).click()
		await expect(page.getByRole('heading', { name: 'Test checkout: $12.50' })).toBeVisible()
	} finally {
		await app.stop()
		await Promise.all([smtp.close(), stripe.close()])
	}
})
