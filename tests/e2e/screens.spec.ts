import { addSmallSticker, claimOnDashboard, expect, signIn, test } from './fixtures.ts'

test('on a phone the dashboard header is one row, its links in a menu that opens with or without JavaScript', async ({ page, person }) => {
	await page.setViewportSize({ width: 390, height: 800 })
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	// With JavaScript the address changes before the dashboard has replaced the sign-in page: measure its header once shown.
	await expect(page.locator('header summary')).toBeVisible()
	expect((await page.locator('header').first().boundingBox())!.height).toBeLessThanOrEqual(120)
	await expect(page.getByRole('link', { name: 'Our Team' })).toBeHidden()
	await page.locator('header summary').click()
	await page.getByRole('link', { name: 'Our Team' }).click()
	await expect(page).toHaveURL(/\/team$/)
})

test('at 1280×800 the checkout’s summary and its Complete FREE Order button are in view as the cart opens', async ({
	page,
	person,
	sticker,
}) => {
	await page.setViewportSize({ width: 1280, height: 800 })
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await claimOnDashboard(page, sticker().pin)
	await addSmallSticker(page)
	await page.goto('/shop?cart=open')
	const dialog = page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })
	await expect(dialog.getByRole('heading', { name: 'Order summary' })).toBeInViewport({ ratio: 1 })
	await expect(dialog.getByRole('button', { name: 'Complete FREE Order' })).toBeInViewport({ ratio: 1 })
})
