import { decodeQr } from '../zbar.ts'
import { claimOnDashboard, expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'

test('claim a sticker, fill a profile, download the PNG: its decoded URL shows allergies and code status first; scanning off reveals nothing', async ({
	page,
	browser,
	sticker,
	person,
}, testInfo) => {
	test.slow()
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('First name').fill('Rosa')
	await page.getByLabel('Last name').fill('Parks')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByText('Medical profile created successfully')).toBeVisible()
	await page.getByRole('link', { name: 'Add Allergy' }).click()
	const dialog = page.getByRole('dialog')
	await dialog.getByLabel('Allergen').fill('Latex')
	await dialog.getByLabel('Severity').selectOption('Severe')
	await dialog.getByRole('button', { name: 'Add Allergy' }).click()
	await expect(page.getByText('Allergy added successfully')).toBeVisible()
	await claimOnDashboard(page, code.pin)

	await page.goto('/dashboard/qr-codes')
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()])
	expect(download.suggestedFilename()).toMatch(/^hmh-qr-(circular|square)-\d+-\d{4}-\d{2}-\d{2}\.png$/)
	const png = Buffer.concat(await (await download.createReadStream()).toArray())
	const decoded = await decodeQr(png)
	expect(decoded).toMatch(/\/scan\/[A-Za-z0-9_-]{24}$/)
	const scanPath = new URL(decoded).pathname

	const responder = await browser.newContext({
		javaScriptEnabled: testInfo.project.name !== 'no-js',
		viewport: { width: 320, height: 640 },
	})
	const phone = await responder.newPage()
	await phone.goto(scanPath)
	const text = await phone.locator('main').innerText()
	expect(text.indexOf('CODE STATUS')).toBeLessThan(text.indexOf('ALLERGIES'))
	await expect(phone.getByText('No DNR recorded')).toBeVisible()
	await expect(phone.getByText('Severe allergy: Latex')).toBeVisible()
	await expectNoAxeViolations(phone, testInfo)

	await page.goto('/dashboard')
	await page.getByRole('button', { name: 'Turn scanning off' }).click()
	await expect(page.getByText('QR scanning: Off.')).toBeVisible()
	await phone.reload()
	await expect(phone.getByRole('heading', { name: 'This code is not active' })).toBeVisible()
	await expect(phone.getByText('Latex')).toHaveCount(0)
	await expect(phone.getByText('Rosa')).toHaveCount(0)
	await responder.close()
})
