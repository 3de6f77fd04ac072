import { expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'

const TITLES = ['HIPAA-Style Medical Information Consent', 'Terms of Service Agreement', 'Emergency Medical Disclaimer']
const tickBox = (title: string) => `I have read and agree to the ${title}`

test('a person without consents is stopped by the consent view until every form is ticked', async ({ page, person }, testInfo) => {
	const user = await person({ consents: false })
	await signIn(page, user)
	await expect(page).toHaveURL(/\/consent\?redirectTo=%2Fdashboard$/)
	await expect(page.getByRole('heading', { level: 1, name: 'Required Consent Forms' })).toBeVisible()
	for (const title of TITLES) await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible()
	await expect(page.getByRole('region', { name: 'HIPAA-Style Medical Information Consent text' })).toContainText(
		'not a healthcare provider',
	)
	await expect(page.getByText('Complete Your Medical Profile')).toHaveCount(0)
	await expectNoAxeViolations(page, testInfo)

	const continueButton = page.getByRole('button', { name: 'Continue' })
	await page.getByLabel(tickBox(TITLES[0]!)).check()
	await page.getByLabel(tickBox(TITLES[1]!)).check()
	// Continue is never off: sent with a box unticked, the answer is said once (the toast), describes the unticked box,
	// which takes the focus, and the title starts with "Error:".
	await continueButton.click()
	await expect(page).toHaveURL(/\/consent\?redirectTo=%2Fdashboard$/)
	await expect(page.getByRole('alert').filter({ hasText: 'Consent Required' })).toContainText(
		'Please agree to all required consents to continue.',
	)
	const unticked = page.getByLabel(tickBox(TITLES[2]!))
	await expect(unticked).toHaveAttribute('aria-invalid', 'true')
	await expect(unticked).toHaveAccessibleDescription('Please agree to all required consents to continue.')
	await expect(unticked).toBeFocused()
	await expect(page).toHaveTitle(/^Error: /)
	// The boxes already ticked stay ticked.
	await expect(page.getByLabel(tickBox(TITLES[0]!))).toBeChecked()
	await expect(page.getByLabel(tickBox(TITLES[1]!))).toBeChecked()
	await expectNoAxeViolations(page, testInfo)
	await unticked.check()
	await continueButton.click()
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText('Consent Recorded')).toBeVisible()
	await expect(page.getByText(`Welcome, ${user.firstName}`)).toBeVisible()

	// Asked once: the next visit goes straight through.
	await page.goto('/consent')
	await expect(page).toHaveURL(/\/dashboard$/)
})

test('the notice shows on other pages while consents are missing, leads to the forms, and can be closed', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	await signIn(page, await person({ consents: false }))
	await expect(page).toHaveURL(/\/consent\?/)
	const claimPath = `/claim/${sticker().pin}`
	await page.goto(claimPath)
	const notice = page.getByRole('complementary', { name: 'Complete Your Medical Profile' })
	await expect(notice).toBeVisible()
	await expect(notice).toContainText('3 of 3 required consent forms still need your agreement.')
	await expectNoAxeViolations(page, testInfo)

	await notice.getByRole('link', { name: 'Complete Missing Forms' }).click()
	await expect(page).toHaveURL(`/consent?redirectTo=${encodeURIComponent(claimPath)}`)
	await expect(page.getByRole('heading', { name: 'Required Consent Forms' })).toBeVisible()
	await expect(notice).toHaveCount(0)

	await page.goto(claimPath)
	// With JavaScript the notice hides at once; the reload below must come after the server has set its cookie.
	const dismissed = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/consent') && r.request().method() === 'POST')
	await notice.getByRole('button', { name: 'Close notice' }).click()
	await dismissed
	await expect(notice).toHaveCount(0)
	await expect(page).toHaveURL(claimPath)
	await expect(page.getByRole('heading', { name: 'Claim your QR code' })).toBeVisible()
	await page.reload()
	await expect(page.getByRole('heading', { name: 'Claim your QR code' })).toBeVisible()
	await expect(notice).toHaveCount(0)
	// Closing the notice is not consent: the dashboard still asks.
	await page.goto('/dashboard')
	await expect(page).toHaveURL(/\/consent\?redirectTo=%2Fdashboard$/)
})
