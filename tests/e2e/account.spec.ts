import type { Page } from '@playwright/test'
import { startMailedInstance } from './app-server.ts'
import { expect, expectNoAxeViolations, signIn, test, timeLimit } from './fixtures.ts'

test('a signed-out visitor asking for the dashboard is told to sign in and lands on /auth', async ({ page }) => {
	await page.goto('/dashboard/profile')
	await expect(page).toHaveURL(/\/auth$/)
	await expect(page.getByText('Please login to access medical tracker features.')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Returning User' })).toBeVisible()
})

test('the header links and the support dialog', async ({ page, person }, testInfo) => {
	const user = await person()
	await signIn(page, user)
	await expect(page.getByText(`Welcome, ${user.firstName}`)).toBeVisible()
	const nav = page.getByRole('navigation', { name: 'Account' })
	await expect(nav.getByRole('link', { name: 'Products' })).toHaveAttribute('href', '/shop')
	await expect(nav.getByRole('link', { name: 'Donations' })).toHaveAttribute('href', '/donate')
	await expect(nav.getByRole('link', { name: 'Our Team' })).toHaveAttribute('href', '/team')
	await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0)
	await nav.getByRole('link', { name: 'Support Us' }).click()
	const dialog = page.getByRole('dialog', { name: 'Support Our Mission' })
	await expect(dialog).toBeVisible()
	// This server has no Stripe settings: the dialog says so instead of offering the tier cards (giving.spec.ts has them).
	await expect(dialog.getByRole('heading', { name: 'Online giving is not set up on this server' })).toBeVisible()
	await expect(dialog.getByRole('link', { name: 'Give Monthly' })).toHaveAttribute('href', '/pricing')
	await expect(dialog.getByRole('link', { name: 'Payment Options' })).toHaveAttribute('href', '/payment-options')
	await expectNoAxeViolations(page, testInfo)
	await dialog.getByRole('link', { name: 'Close' }).click()
	await expect(dialog).toBeHidden()
	await expect(page).toHaveURL(/\/dashboard$/)
})

test('edit the name, ask for a new e-mail and cancel it, then delete the account', async ({ page, person }, testInfo) => {
	test.slow()
	const user = await person()
	await signIn(page, user)
	await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Profile' }).click()
	await expect(page).toHaveURL(/\/dashboard\/profile$/)
	await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible()
	// The account's own sign-in (the fixture's, through the API) is the one before this browser's.
	await expect(page.getByText(/^Last sign-in: .+ ET from (127\.0\.0\.1|::1)$/)).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	const save = page.getByRole('button', { name: 'Save Changes' })
	await expect(save).toBeEnabled()
	await page.getByLabel('First name').fill('Marie')
	await page.getByLabel('Last name').fill('Curie')
	await save.click()
	await expect(page.getByText('Your name has been saved.')).toBeVisible()
	await expect(page.getByText('Welcome, Marie')).toBeVisible()

	await page.getByRole('link', { name: 'Edit email' }).click()
	const newEmail = page.getByLabel('New email')
	await newEmail.fill(user.email)
	await page.getByRole('button', { name: 'Save', exact: true }).click()
	await expect(page.getByText('The new email must be different from your current email').first()).toBeVisible()
	const moved = user.email.replace('@', '+moved@')
	await newEmail.fill(moved)
	await page.getByRole('button', { name: 'Save', exact: true }).click()
	const sent = `We sent a link to ${moved}. Your email changes once you open it.`
	await expect(page.getByRole('status').filter({ hasText: sent })).toBeVisible()
	// Nothing changes until the link is opened: the address stays, the waiting one is shown with a way to cancel.
	const emailCard = page.getByRole('region', { name: 'Email' })
	await expect(emailCard.getByText(user.email, { exact: true })).toBeVisible()
	await expect(emailCard.getByText(sent, { exact: false })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	await emailCard.getByRole('button', { name: 'Cancel Email Change' }).click()
	await expect(page.getByText(`Your email stays ${user.email}. The link we sent no longer works.`)).toBeVisible()
	await expect(emailCard.getByRole('button', { name: 'Cancel Email Change' })).toHaveCount(0)

	await page.getByRole('link', { name: 'Delete Account' }).click()
	const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
	await expect(dialog).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(dialog).toBeHidden()
	await page.getByRole('link', { name: 'Delete Account' }).click()
	await dialog.getByRole('button', { name: 'Delete My Account' }).click()
	await expect(page.getByText('Account Deleted')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Returning User' })).toBeVisible()

	await signIn(page, user)
	await expect(page.getByText('Invalid email or password')).toBeVisible()
})

// An instance of its own whose mail goes to a real SMTP server on loopback (the links are read from there), and which
// trusts the loopback proxy, so its geolocation headers count.
test.describe('with its mail delivered', () => {
	test.describe.configure({ mode: 'serial' })
	let mailed: Awaited<ReturnType<typeof startMailedInstance>>

	test.beforeAll(async () => {
		test.setTimeout(timeLimit(180_000))
		mailed = await startMailedInstance({ TRUSTED_PROXIES: '127.0.0.1,::1' })
	})

	test.afterAll(async () => {
		await mailed?.stop()
	})

	const url = (path: string) => mailed.url(path)
	const mailTo = (address: string, subject: string) => mailed.mailTo(address, subject)

	async function signInHere(page: Page, user: { email: string; password: string }) {
		await page.goto(url('/login'))
		await page.getByLabel('Email').fill(user.email)
		await page.getByLabel('Password').fill(user.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(url('/dashboard'))
	}

	test('a new e-mail takes effect once the link sent to it is opened', async ({ page }, testInfo) => {
		test.slow()
		const user = mailed.app.fixtures().users[0]!
		await signInHere(page, user)
		await page.goto(url('/dashboard/profile?edit=email'))
		const moved = `moved-${testInfo.project.name}-${Date.now()}@e2e.example`
		await page.getByLabel('New email').fill(moved)
		await page.getByRole('button', { name: 'Save', exact: true }).click()
		await expect(page.getByRole('status').filter({ hasText: `We sent a link to ${moved}.` })).toBeVisible()

		await mailTo(user.email, 'A change of your email address was requested').toContain(`change its email address to ${moved}`)
		await mailTo(moved, 'Confirm your new email address').toContain('/account/confirm-email?token=')
		const mail = mailed.smtp.received.find((m) => m.to.includes(moved))!
		const link = /https?:\/\/\S+\/account\/confirm-email\?token=[\w-]+/.exec(mail.text)![0]
		expect(link.startsWith(mailed.app.baseURL)).toBe(true)
		// The address is still the old one, here and for signing in.
		await expect(page.getByRole('region', { name: 'Email' }).getByText(user.email, { exact: true })).toBeVisible()

		await page.goto(link)
		await expect(page.getByRole('heading', { name: 'Confirm your new email' })).toBeVisible()
		await expect(page.getByText(`Use ${moved} as the email address of your Hit Me Helpers account?`)).toBeVisible()
		await expectNoAxeViolations(page, testInfo)
		await page.getByRole('button', { name: 'Confirm New Email' }).click()
		await expect(page).toHaveURL(url('/dashboard/profile'))
		await expect(page.getByRole('status').filter({ hasText: `Your email is now ${moved}.` })).toBeVisible()
		const emailCard = page.getByRole('region', { name: 'Email' })
		await expect(emailCard.getByText(moved, { exact: true })).toBeVisible()
		await expect(emailCard.getByRole('button', { name: 'Cancel Email Change' })).toHaveCount(0)
		await mailTo(user.email, 'Your email address was changed').toContain(`is now ${moved}`)

		// The link is spent.
		await page.goto(link)
		await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible()

		// The new address signs in; the old one no longer does.
		await page.goto(url('/dashboard/profile'))
		await page.getByRole('region', { name: 'Sign-ins and sessions' }).getByRole('button', { name: 'Sign Out', exact: true }).click()
		await expect(page).toHaveURL(url('/auth'))
		await page.goto(url('/login'))
		await page.getByLabel('Email').fill(user.email)
		await page.getByLabel('Password').fill(user.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page.getByText('Invalid email or password')).toBeVisible()
		await signInHere(page, { email: moved, password: user.password })
	})

	test('the last sign-in says when and from where; Sign Out Everywhere ends every session', async ({ page, browser, hasJs }) => {
		test.slow()
		const user = mailed.app.fixtures().users[1]!
		// This browser comes through the proxy from Portland; the other from an address with no place.
		await page.setExtraHTTPHeaders({
			'x-forwarded-for': '203.0.113.20',
			'cf-ipcity': 'Portland',
			'cf-region-code': 'ME',
			'cf-ipcountry': 'US',
		})
		await signInHere(page, user)
		const other = await browser.newContext({ javaScriptEnabled: hasJs, extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.21' } })
		try {
			const elsewhere = await other.newPage()
			await signInHere(elsewhere, user)
			await elsewhere.goto(url('/dashboard/profile'))
			await expect(elsewhere.getByText(/^Last sign-in: .+ ET from Portland, ME, US \(203\.0\.113\.20\)$/)).toBeVisible()

			await page.goto(url('/dashboard/profile'))
			await expect(page.getByText(/^Last sign-in: .+ ET from 203\.0\.113\.21$/)).toBeVisible()
			await page.getByRole('button', { name: 'Sign Out Everywhere' }).click()
			await expect(page).toHaveURL(url('/auth'))
			await expect(page.getByText('Every session of your account has ended, on every browser and device, this one included.')).toBeVisible()

			await elsewhere.goto(url('/dashboard/profile'))
			await expect(elsewhere).toHaveURL(url('/auth'))
			await expect(elsewhere.getByText('Please login to access medical tracker features.')).toBeVisible()
		} finally {
			await other.close()
		}
	})
})
