import { expect, focusPlace, signIn, test } from './fixtures.ts'

// Escape and giving focus back are JavaScript enhancements: this file runs in the JavaScript project only.
test('the cart dialog opens from the keyboard on a visible control and gives focus back to the Cart button', async ({ page }) => {
	await page.goto('/shop')
	const cart = page.getByRole('banner').getByRole('link', { name: /^Cart/ })
	await cart.focus()
	await page.keyboard.press('Enter')
	const dialog = page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })
	await expect(dialog).toBeVisible()
	await expect.poll(() => focusPlace(page)).toBe('dialog')
	expect(await page.evaluate(() => (document.activeElement as HTMLElement).getClientRects().length)).toBeGreaterThan(0)
	await page.keyboard.press('Escape')
	await expect(dialog).toBeHidden()
	await expect(cart).toBeFocused()
})

test('moving between the dashboard tabs by keyboard puts focus on the new page’s heading', async ({ page, person }) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	const tabs = page.getByRole('navigation', { name: 'Dashboard' })
	for (const [label, heading] of [
		['QR Codes', 'QR Codes'],
		['Profile', 'Profile'],
		['Medical Info', 'Medical Information'],
	] as const) {
		await tabs.getByRole('link', { name: label, exact: true }).focus()
		await page.keyboard.press('Enter')
		await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeFocused()
	}
})
