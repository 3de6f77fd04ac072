import { expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'

test('sign up, sign in and log out', async ({ page }, testInfo) => {
	const email = `new-${testInfo.project.name}-${Date.now()}@e2e.example`
	await page.goto('/signup')
	await expectNoAxeViolations(page, testInfo)
	await page.getByLabel('Username').fill(`new${testInfo.project.name}${Date.now()}`)
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('Newcomer-pass-1!')
	await page.getByLabel(/I agree to the Terms of Service/).check()
	await page.getByRole('button', { name: 'Create Account' }).click()

	await expect(page).toHaveURL(/\/login$/)
	await expect(page.getByText('Signup Information Recorded')).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	await signIn(page, { email, password: 'Newcomer-pass-1!' })
	// A new account agrees to the three consent forms before anything else.
	await expect(page).toHaveURL(/\/consent\?redirectTo=%2Fdashboard$/)
	for (const box of await page.getByRole('checkbox').all()) await box.check()
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText('Consent Recorded')).toBeVisible()
	await expect(page.getByText(`Welcome, ${email}`)).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	await page.getByRole('button', { name: 'Sign Out' }).click()
	await expect(page).toHaveURL(/\/auth$/)
	await expect(page.getByRole('heading', { name: 'Returning User' })).toBeVisible()
	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { name: 'Already Have a QR Code?' })).toBeVisible()
})

test('signup refuses bad input and a taken e-mail with messages beside the fields', async ({ page, person, hasJs }) => {
	const existing = await person()
	await page.goto('/signup')
	await page.getByLabel('Username').fill('ab')
	await page.getByLabel('Email').fill(existing.email)
	await page.getByLabel('Password').fill('short')
	if (hasJs) {
		await expect(page.getByText('Password must contain at least one number')).toBeVisible()
		await expect(page.getByText('Strength: Very Weak')).toBeVisible()
	}
	await page.getByRole('button', { name: 'Create Account' }).click()
	await expect(page.getByText('Username must be at least 3 characters')).toBeVisible()
	await expect(page.getByText('You must agree to the terms to continue')).toBeVisible()

	await page.getByLabel('Username').fill(`fresh${Date.now()}`)
	await page.getByLabel('Password').fill('Newcomer-pass-1!')
	if (hasJs) await expect(page.getByText('Password meets all requirements')).toBeVisible()
	await page.getByLabel(/I agree to the Terms of Service/).check()
	await page.getByRole('button', { name: 'Create Account' }).click()
	await expect(page.getByText('An account with this email already exists')).toBeVisible()
	await expect(page).toHaveURL(/\/signup$/)
})

test('a wrong password is refused', async ({ page, person }, testInfo) => {
	const user = await person()
	await page.goto('/')
	await page.getByRole('link', { name: 'Sign In' }).click()
	await expect(page).toHaveURL(/\/login$/)
	await expectNoAxeViolations(page, testInfo)
	await signIn(page, { email: user.email, password: 'Not-the-password-1!' })
	await expect(page.getByText('Invalid email or password')).toBeVisible()
	await expect(page).toHaveURL(/\/login$/)
	await signIn(page, user)
	await expect(page.getByText(`Welcome, ${user.firstName}`)).toBeVisible()
})

test('the landing page shows the three cards, the donate button and the footer', async ({ page }, testInfo) => {
	await page.goto('/')
	for (const heading of ['Already Have a QR Code?', 'Need a QR Code?', 'Returning User'])
		await expect(page.getByRole('heading', { name: heading })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Request Free QR Code' })).toHaveAttribute('href', '/request-qr')
	await expect(page.getByRole('link', { name: /Support Our Mission/ })).toHaveAttribute('href', '/donate')
	for (const badge of ['Secure Site', 'HTTPS', 'Encrypted']) await expect(page.getByText(badge, { exact: true })).toBeVisible()
	await expect(page.getByText(/© \d{4} Hit Me Helpers Foundation/)).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	// /subscribe is the sign-in page too while giving is set up (giving.spec.ts); here it is not, and says so.
	for (const path of ['/auth', '/register', '/signin', '/dashboard']) {
		await page.goto(path)
		await expect(page.getByRole('heading', { name: 'Returning User' })).toBeVisible()
	}
})

test('an unknown page is a 404 page', async ({ page }, testInfo) => {
	const response = await page.goto('/no-such-page')
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
})
