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
