import { ADMIN_TOKEN } from '../playwright.config.ts'
import { expect, expectNoAxeViolations, expectWrongTokenAnnounced, signIn, test } from './fixtures.ts'

// With JavaScript: a session that presented the admin token downloads a batch through the page's fetch, with a
// progress bar, and stays on the page; the owner panel takes the token from its form.

test('a token session downloads a batch with a progress bar, and the page stays', async ({ page, person }, testInfo) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.goto('/admin')
	await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible()
	await page.getByRole('link', { name: 'Admin Access' }).click()
	await expectWrongTokenAnnounced(page)
	await page.getByLabel('Admin token').fill(ADMIN_TOKEN)
	await page.getByRole('button', { name: 'Admin Access' }).click()
	await expect(page.getByRole('heading', { name: 'Overview', exact: true })).toBeVisible()

	await page.getByRole('link', { name: 'QR Management' }).click()
	await expectNoAxeViolations(page, testInfo)
	await page.getByLabel('Quantity').fill('3')
	await page.getByLabel('Format').selectOption('pdf')
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Generate and Download' }).click()])
	expect(download.suggestedFilename()).toMatch(/^hmh-stickers-batch-\d+-3\.pdf$/)
	await expect(page.getByText('Saved.')).toBeVisible()
	await expect(page).toHaveURL(/\/admin\/qr-management$/)
	await page.reload()
	await expect(page.getByText(/Batch \d+: 3 codes as PDF/)).toBeVisible()
})
