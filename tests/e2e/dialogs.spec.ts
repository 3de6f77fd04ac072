import { type Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures.ts'

/** Where focus is: inside the open dialog, or nowhere (the document itself), never on the page behind it. */
const focusPlace = (page: Page) =>
	page.evaluate(() => {
		const active = document.activeElement
		if (!active || active === document.body || active === document.documentElement) return 'nowhere'
		return active.closest('[role=dialog]') ? 'dialog' : `page: ${active.outerHTML.slice(0, 80)}`
	})

test('a medical dialog takes focus, keeps the page behind out of reach, and a refused save puts focus on the first error', async ({
	page,
	hasJs,
	person,
}) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('First name').fill('Ines')
	await page.getByLabel('Last name').fill('Tester')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByRole('button', { name: 'Save Personal Information' })).toBeVisible()

	const opener = page.getByRole('link', { name: 'Add Allergy', exact: true })
	await opener.focus()
	await page.keyboard.press('Enter')
	const dialog = page.getByRole('dialog', { name: 'Add Allergy' })
	await expect(dialog).toBeVisible()
	await expect.poll(() => focusPlace(page)).toBe('dialog')
	for (let i = 0; i < 25; i++) {
		await page.keyboard.press('Tab')
		expect(['dialog', 'nowhere']).toContain(await focusPlace(page))
	}

	await dialog.getByRole('button', { name: 'Add Allergy' }).click()
	const allergen = dialog.getByLabel('Allergen')
	await expect(allergen).toHaveAttribute('aria-invalid', 'true')
	await expect(allergen).toBeFocused()

	if (hasJs) {
		await page.keyboard.press('Escape')
		await expect(dialog).toBeHidden()
		await expect(opener).toBeFocused()
	}
})

test('the cart dialog opens from the keyboard on a visible control and gives focus back to the Cart button', async ({ page, hasJs }) => {
	test.skip(!hasJs, 'Escape and focus return are JavaScript enhancements')
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
