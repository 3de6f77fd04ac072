import { claimOnDashboard, expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'

test('PIN card: wrong length and unknown PINs get the spec messages', async ({ page }) => {
	await page.goto('/')
	const pin = page.getByLabel('PIN', { exact: true })
	const claim = page.getByRole('button', { name: 'Claim Your QR Code' })
	// By keyboard: the button is never off; pressed with a short PIN, the answer is beside the field, which takes the focus.
	await pin.fill('abc')
	await pin.press('Tab')
	await expect(claim).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(pin).toHaveAccessibleDescription('Please enter an 8-character PIN')
	await expect(pin).toHaveAttribute('aria-invalid', 'true')
	await expect(pin).toBeFocused()
	await expect(page).toHaveTitle(/^Error: /)
	// An unknown PIN: the same, from the server.
	await pin.fill('zzzz2345')
	await pin.press('Tab')
	await page.keyboard.press('Enter')
	await expect(pin).toHaveAccessibleDescription('Invalid or already claimed PIN')
	await expect(pin).toBeFocused()
	await expect(page).toHaveTitle(/^Error: /)
	await expect(page).toHaveURL(/\/auth$/)
})

test('a valid PIN while signed out: sign in, then the code is claimed', async ({ page, sticker, person }, testInfo) => {
	const code = sticker()
	const user = await person()
	await page.goto('/')
	await page.getByLabel('PIN', { exact: true }).fill(code.pin.toLowerCase())
	await page.getByRole('button', { name: 'Claim Your QR Code' }).click()
	await expect(page).toHaveURL(/\/login$/)
	await expect(page.getByText('Please create an account or sign in to claim your QR code')).toBeVisible()

	// Signing in confirms the claim: the sticker is linked at once, with or without JavaScript.
	await signIn(page, user)
	await expect(page).toHaveURL(new RegExp(`/claim/${code.pin}$`))
	await expect(page.getByText('This QR code is linked to your account.')).toBeVisible()
	await expect(page.getByText('QR Code Claimed')).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	await page.getByRole('link', { name: 'Go to your dashboard' }).click()
	await expect(page.getByText(code.pin)).toBeVisible()

	// The same PIN cannot be claimed twice.
	await page.getByLabel('PIN', { exact: true }).fill(code.pin)
	await page.getByRole('button', { name: 'Claim Your QR Code' }).click()
	await expect(page.getByText('Invalid or already claimed PIN').first()).toBeVisible()
})

test('a valid PIN while signed in is validated, then /claim/{pin} asks whose information the code shows', async ({
	page,
	sticker,
	person,
}, testInfo) => {
	const [family, code] = [sticker(), sticker()]
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('First name').fill('Olga')
	await page.getByLabel('Last name').fill('Holder')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByText('Medical profile created successfully')).toBeVisible()
	await page.getByRole('link', { name: 'Add Family Member' }).click()
	const dialog = page.getByRole('dialog', { name: 'Add Family Member Profile' })
	await dialog.getByLabel('Full name').fill('Kid Holder')
	await dialog.getByLabel('PIN from their QR code sticker or card').fill(family.pin)
	await dialog.getByRole('button', { name: 'Create Profile' }).click()
	await expect(page.getByText('Kid Holder has been created and QR code activated successfully.')).toBeVisible()

	await page.goto('/dashboard')
	await page.getByLabel('PIN', { exact: true }).fill(code.pin)
	await page.getByRole('button', { name: 'Claim Your QR Code' }).click()
	await expect(page).toHaveURL(new RegExp(`/claim/${code.pin}$`))
	await expect(page.getByText('PIN Validated')).toBeVisible()
	await expect(page.getByText('Redirecting to claim your QR code...')).toBeVisible()
	await expect(page.getByText('This QR code is ready to be linked to your account.')).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	await page.getByLabel('Whose information will this code show?').selectOption({ label: 'Kid Holder (Child)' })
	await page.getByRole('button', { name: 'Claim QR Code' }).click()
	await expect(page.getByText('This QR code is linked to your account.')).toBeVisible()
	await page.goto('/dashboard/qr-codes')
	const card = page.getByRole('listitem').filter({ hasText: `Sticker ${code.pin}` })
	await expect(card.getByText(/Shows: Kid Holder \(Child\)/)).toBeVisible()
})

test('a signed-in person opening /claim/{pin} claims with one press', async ({ page, sticker, person }) => {
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.goto(`/claim/${code.pin}`)
	await page.getByRole('button', { name: 'Claim QR Code' }).click()
	await expect(page.getByText('This QR code is linked to your account.')).toBeVisible()
	await page.goto(`/claim/${code.pin}`)
	await expect(page.getByText('This QR code is linked to your account.')).toBeVisible()
})

test('the claim page asks a signed-out visitor to sign in', async ({ page, sticker }, testInfo) => {
	await page.goto(`/claim/${sticker().pin}`)
	await expect(page.getByRole('button', { name: 'Sign in to claim' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
})

test('a second sticker is claimed from the QR Codes tab; a wrong PIN there keeps the tab, with the message beside the field', async ({
	page,
	sticker,
	person,
}, testInfo) => {
	const [first, second] = [sticker(), sticker()]
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await claimOnDashboard(page, first.pin)

	await page.goto('/dashboard/qr-codes')
	const claim = page.getByRole('region', { name: 'Claim another sticker or card' })
	await claim.getByLabel('PIN', { exact: true }).fill('ZZZZ2345')
	await claim.getByRole('button', { name: 'Claim Your QR Code' }).click()
	await expect(page).toHaveURL(/\/dashboard\/qr-codes$/)
	await expect(claim.getByLabel('PIN', { exact: true })).toHaveAccessibleDescription('Invalid or already claimed PIN')
	await expect(page.getByRole('heading', { name: 'QR Codes', level: 1 })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	await claim.getByLabel('PIN', { exact: true }).fill(second.pin)
	await claim.getByRole('button', { name: 'Claim Your QR Code' }).click()
	await expect(page).toHaveURL(new RegExp(`/claim/${second.pin}$`))
	await page.getByRole('button', { name: 'Claim QR Code' }).click()
	await expect(page.getByText('This QR code is linked to your account.')).toBeVisible()
	await page.goto('/dashboard/qr-codes')
	await expect(page.getByText(`sticker ${first.pin}`).first()).toBeAttached()
	await expect(page.getByText(`sticker ${second.pin}`).first()).toBeAttached()
})

test('a wrong PIN on the dashboard keeps the dashboard, with the message beside the field', async ({ page, person }) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('PIN', { exact: true }).fill('ZZZZ2345')
	await page.getByRole('button', { name: 'Claim Your QR Code' }).click()
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByLabel('PIN', { exact: true })).toHaveAccessibleDescription('Invalid or already claimed PIN')
	await expect(page.getByRole('heading', { name: 'Medical Information', level: 1 })).toBeVisible()
})
