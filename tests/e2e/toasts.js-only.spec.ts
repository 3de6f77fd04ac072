import { expect, signIn, test } from './fixtures.ts'

// The keyboard shortcut and the dismiss button are JavaScript enhancements: this file runs in the JavaScript project only.
test('F8 focuses the notifications; the dismiss button removes a toast', async ({ page, person }) => {
	await signIn(page, await person())
	await page.getByRole('button', { name: 'Sign Out' }).click()
	const toast = page.getByRole('status').filter({ hasText: 'Logged Out' })
	await expect(toast).toBeVisible()
	await page.keyboard.press('F8')
	await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toBeFocused()
	await page.keyboard.press('Tab')
	await expect(page.getByRole('button', { name: 'Dismiss notification' })).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(toast).toBeHidden({ timeout: 1_000 })
})

test('a toast leaving does not move the page under the pointer', async ({ page, person }) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('PIN', { exact: true }).fill('ZZZZ2345')
	await page.getByRole('button', { name: 'Claim Your QR Code' }).click()
	const toast = page.locator('[data-toast]')
	await expect(toast).toBeVisible()
	await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
	const heading = page.getByRole('heading', { name: 'Medical Information', level: 1 })
	const before = (await heading.boundingBox())!.y
	await expect(toast).toHaveCount(0, { timeout: 7_000 })
	expect((await heading.boundingBox())!.y).toBe(before)
})
