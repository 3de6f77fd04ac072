import { claimOnDashboard, expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'

test('QR codes tab: customise with a preview, the 25/16 text rule, deactivate and activate, scan history', async ({
	page,
	sticker,
	person,
	hasJs,
}, testInfo) => {
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByRole('link', { name: 'QR Codes' }).click()
	await expect(page.getByRole('heading', { name: 'Get Your Free Medical QR Code' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Request QR Code' })).toHaveAttribute('href', '/request-qr')

	await page.goto('/')
	await claimOnDashboard(page, code.pin)
	await page.goto('/dashboard/qr-codes')
	await expect(page.getByRole('img', { name: `QR code ${code.pin}` })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	await page.getByLabel('QR colour').selectOption({ label: 'Medical Blue' })
	const customText = page.getByLabel('Custom text (optional)')
	await customText.fill('ABCDEFGHIJKLMNOPQ')
	// Update QR Code is never off: the refusal is said beside the text, which takes the focus.
	await page.getByRole('button', { name: 'Update QR Code' }).click()
	await expect(customText).toHaveAccessibleDescription(/Too long: 17\/16 letters$/)
	await expect(customText).toHaveAttribute('aria-invalid', 'true')
	await expect(customText).toBeFocused()
	await expect(page).toHaveTitle(/^Error: /)
	await page.getByLabel('Custom text (optional)').fill('EPILEPSY 2026')
	if (!hasJs) {
		await page.getByRole('button', { name: 'Preview' }).click()
		await expect(page).toHaveURL(/preview=1/)
	}
	await expect(page.getByRole('img', { name: 'QR code preview' })).toContainText('EPILEPSY 2026')
	await page.getByRole('button', { name: 'Update QR Code' }).click()
	await expect(page.getByText('QR code updated with your latest medical information')).toBeVisible()

	await page.getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByText('QR Code Deactivated')).toBeVisible()
	await expect(page.getByText('Inactive', { exact: true })).toBeVisible()
	await page.getByRole('button', { name: 'Activate' }).click()
	await expect(page.getByText('QR Code Activated')).toBeVisible()

	// The Delete dialog starts on Close, never on the action: Enter, Enter from the keyboard deletes nothing.
	const remove = page.getByRole('link', { name: 'Delete', exact: true })
	await remove.focus()
	await page.keyboard.press('Enter')
	const confirm = page.getByRole('dialog', { name: 'Delete this QR code?' })
	await expect(confirm.getByRole('link', { name: 'Close' })).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(confirm).toBeHidden()
	await expect(page.getByRole('img', { name: `QR code ${code.pin}` })).toBeVisible()
	await expect(remove).toBeFocused()

	await page.request.get(new URL(code.scanUrl).pathname)
	await page.getByRole('link', { name: 'Scan history' }).click()
	await expect(page.getByRole('heading', { name: 'Scan history' })).toBeVisible()
	// The owner's own scan (page.request carries the session), as the admin Scans tab would name it.
	await expect(page.getByText(/ET · The code's owner · desktop/)).toBeVisible()
})
