import type { Page } from '@playwright/test'
import { expect, signIn, test } from './fixtures.ts'

// Issue: a sticker must never show another person's record. A family member's sticker whose profile is deleted shows
// the neutral page, and nothing of the account holder's own profile.

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

const KID = 'Kid Holder-Wolfeschlegelsteinhausenbergerdorff'

const successToast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })

test('claim a sticker for a family member, fill that profile, delete it: the scan shows the neutral page and nothing of any other profile', async ({
	page,
	browser,
	person,
	sticker,
	hasJs,
}) => {
	test.slow()
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)

	// The account holder's own record: what the old fallback showed on an orphaned sticker.
	await page.getByLabel('First name').fill('Olga')
	await page.getByLabel('Last name').fill('Holder')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(successToast(page, 'Medical profile created successfully')).toBeVisible()
	await page.getByRole('link', { name: 'Add Allergy' }).click()
	let dialog = page.getByRole('dialog')
	await dialog.getByLabel('Allergen').fill('Latex')
	await dialog.getByLabel('Severity').selectOption('Severe')
	await dialog.getByRole('button', { name: 'Add Allergy' }).click()
	await expect(successToast(page, 'Allergy added successfully')).toBeVisible()

	await page.getByRole('link', { name: 'Add Family Member' }).click()
	dialog = page.getByRole('dialog', { name: 'Add Family Member Profile' })
	// A long unbroken name: the identity block must still fit 320 px.
	await dialog.getByLabel('Full name').fill(KID)
	await dialog.getByLabel('PIN from their QR code sticker or card').fill(code.pin)
	await dialog.getByRole('button', { name: 'Create Profile' }).click()
	await expect(successToast(page, `${KID} has been created and QR code activated successfully.`)).toBeVisible()
	await page.getByRole('link', { name: 'Add Allergy' }).click()
	dialog = page.getByRole('dialog')
	await dialog.getByLabel('Allergen').fill('Peanuts')
	await dialog.getByLabel('Severity').selectOption('Severe')
	await dialog.getByRole('button', { name: 'Add Allergy' }).click()
	await expect(successToast(page, 'Allergy added successfully')).toBeVisible()

	await page.getByLabel('Profile picture').setInputFiles({ name: 'kid.png', mimeType: 'image/png', buffer: PNG })
	await page.getByRole('button', { name: 'Upload Photo' }).click()
	await expect(successToast(page, 'Profile picture uploaded and saved successfully')).toBeVisible()

	const responder = await browser.newContext({ javaScriptEnabled: hasJs, viewport: { width: 320, height: 640 } })
	const phone = await responder.newPage()
	await phone.goto(new URL(code.scanUrl).pathname)
	// Who it is about comes first, with the code status.
	const before = await phone.locator('main').innerText()
	expect(before.indexOf('Kid Holder')).toBeLessThan(before.indexOf('CODE STATUS'))
	await expect(phone.getByText('Severe allergy: Peanuts')).toBeVisible()
	await expect(phone.getByRole('img', { name: `Photo of ${KID}` })).toBeVisible()
	expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
	// WCAG 1.4.12's text-spacing override: still no sideways scrolling at 320 px.
	await phone.evaluate(() => {
		for (const el of document.querySelectorAll<HTMLElement>('body *')) {
			el.style.setProperty('line-height', '1.5', 'important')
			el.style.setProperty('letter-spacing', '0.12em', 'important')
			el.style.setProperty('word-spacing', '0.16em', 'important')
			if (el.tagName === 'P') el.style.setProperty('margin-bottom', '2em', 'important')
		}
	})
	expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)

	// Removing the photo asks first; Close keeps it and returns to Remove Photo.
	await page.getByRole('link', { name: 'Remove Photo' }).click()
	dialog = page.getByRole('dialog', { name: 'Remove Photo?' })
	await expect(dialog.getByRole('link', { name: 'Close' })).toBeFocused()
	await dialog.getByRole('link', { name: 'Close' }).click()
	await expect(page.getByRole('link', { name: 'Remove Photo' })).toBeFocused()
	await expect(page.getByRole('img', { name: `Photo of ${KID}` })).toBeVisible()
	await page.getByRole('link', { name: 'Remove Photo' }).click()
	await page.getByRole('dialog', { name: 'Remove Photo?' }).getByRole('button', { name: 'Remove Photo' }).click()
	await expect(successToast(page, 'Profile picture removed')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeFocused()
	await phone.reload()
	await expect(phone.getByRole('img', { name: `Photo of ${KID}` })).toHaveCount(0)

	await page.getByRole('link', { name: 'Delete Selected Profile' }).click()
	dialog = page.getByRole('dialog', { name: 'Delete this profile?' })
	await dialog.getByRole('button', { name: 'Delete Profile' }).click()
	await expect(successToast(page, `Its QR code (PIN ${code.pin}) is now off`)).toBeVisible()

	await phone.reload()
	await expect(phone.getByRole('heading', { name: 'This code is not active' })).toBeVisible()
	const after = await phone.locator('body').innerText()
	for (const text of ['Olga', 'Holder', 'Kid', 'Latex', 'Peanuts', 'DNR']) expect(after, text).not.toContain(text)
	await responder.close()

	await page.goto('/dashboard/qr-codes')
	await expect(page.getByText('1 QR code needs a profile')).toBeVisible()
	await expect(page.getByText(`sticker ${code.pin}`).first()).toBeVisible()
})
