import type { Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures.ts'

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

test('at 320 px the landing page, the dashboard and its tabs, the shop, checkout and the public pages never scroll sideways', async ({
	page,
	person,
}, testInfo) => {
	await page.setViewportSize({ width: 320, height: 800 })
	await page.goto('/')
	expect(await overflow(page), 'landing').toBeLessThanOrEqual(0)
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	for (const path of [
		'/dashboard',
		'/dashboard/qr-codes',
		'/dashboard/profile',
		'/shop',
		'/cart',
		'/request-products',
		'/request-qr',
		'/order-tracking',
		'/team',
	]) {
		await page.goto(path)
		await expect(page.locator('main')).toBeVisible()
		expect(await overflow(page), path).toBeLessThanOrEqual(0)
	}
	await page.goto('/dashboard')
	await testInfo.attach('dashboard at 320 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' })
})
