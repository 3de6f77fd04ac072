import { decodeQr } from '../zbar.ts'
import { expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'

test('a legacy account generates its own QR code, downloads it, and deletes it', async ({ page, legacyPerson }, testInfo) => {
	test.slow()
	await signIn(page, legacyPerson())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('First name').fill('Lena')
	await page.getByLabel('Last name').fill('Legacy')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByText('Medical profile created successfully')).toBeVisible()

	await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'QR Codes' }).click()
	await expect(page.getByText('Legacy Access - Self-Generation Enabled')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Get Your Free Medical QR Code' })).toHaveCount(0)
	await page.getByLabel('Medical profile').selectOption({ label: 'Lena Legacy (Yourself)' })
	await page.getByRole('button', { name: 'Generate Smart QR Code' }).click()
	await expect(page.getByText('QR code generated successfully')).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()])
	const decoded = await decodeQr(Buffer.concat(await (await download.createReadStream()).toArray()))
	expect(decoded).toMatch(/\/scan\/[A-Za-z0-9_-]{24}$/)
	const scan = await page.request.get(new URL(decoded).pathname)
	expect(await scan.text()).toContain('Lena Legacy')

	await page.getByRole('link', { name: 'Delete' }).click()
	await page.getByRole('dialog', { name: 'Delete this QR code?' }).getByRole('button', { name: 'Delete QR Code' }).click()
	await expect(page.getByText('QR code deleted successfully')).toBeVisible()
	// Its Delete went with it, and no card follows: focus is on the page's heading, not the body.
	await expect(page.getByRole('heading', { name: 'QR Codes', level: 1 })).toBeFocused()
	expect((await page.request.get(new URL(decoded).pathname)).status()).toBe(404)
})
