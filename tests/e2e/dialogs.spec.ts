import { expect, focusPlace, signIn, test } from './fixtures.ts'

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
