import { expect, signIn, test } from './fixtures.ts'

test('a toast set by an action shows after the redirect, then leaves by itself after 5 s', async ({ page, person }) => {
	await signIn(page, await person())
	await page.getByRole('button', { name: 'Logout' }).click()
	const toast = page.getByRole('status').filter({ hasText: 'Logged Out' })
	await expect(toast).toBeVisible()
	await expect(toast).toBeHidden({ timeout: 7_000 })
})
