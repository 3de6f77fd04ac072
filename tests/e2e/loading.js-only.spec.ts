import { expect, test } from './fixtures.ts'

// The loading state follows client-side navigations: this file runs in the JavaScript project only.
test('a slow navigation shows an announced loading state, which leaves when the page arrives', async ({ page }) => {
	await page.goto('/payment-options')
	await page.waitForLoadState('networkidle')
	await page.route('**/team.data*', async (route) => {
		await new Promise((resolve) => setTimeout(resolve, 1500))
		await route.continue()
	})
	const loading = page.getByRole('status').filter({ hasText: 'Loading...' })
	await expect(loading).toHaveCount(0)
	const banner = page.getByRole('region', { name: 'Online safety notice' })
	await banner.getByText('More info').click()
	await banner.getByRole('link', { name: 'Contact the foundation' }).click()
	await expect(loading).toBeVisible()
	await expect(loading).toHaveAttribute('aria-live', 'polite')
	await expect(page.getByRole('heading', { level: 1, name: 'Our Team' })).toBeVisible()
	await expect(loading).toHaveCount(0)
})
