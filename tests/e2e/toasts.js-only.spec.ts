import { expect, signIn, test } from './fixtures.ts'

// Keyboard shortcut and swipe are JavaScript enhancements: this file runs in the JavaScript project only.
test('F8 focuses the notifications; a swipe to the right dismisses a toast', async ({ page, person }) => {
	await signIn(page, await person())
	await page.getByRole('button', { name: 'Logout' }).click()
	const toast = page.getByRole('status').filter({ hasText: 'Logged Out' })
	await expect(toast).toBeVisible()
	await page.keyboard.press('F8')
	await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toBeFocused()
	const box = (await toast.boundingBox())!
	await page.mouse.move(box.x + 20, box.y + box.height / 2)
	await page.mouse.down()
	await page.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 5 })
	await page.mouse.up()
	await expect(toast).toBeHidden({ timeout: 1_000 })
})
