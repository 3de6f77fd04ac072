import type { Download } from '@playwright/test'
import { decodeQr } from '../zbar.ts'
import { expect, expectNoAxeViolations, signIn, test, timeLimit } from './fixtures.ts'

// SMART Health Links on the QR Codes tab, with JavaScript and without: make one with a passcode, see its QR code and
// text, let a viewer on another site open it, revoke it.

const bytesOf = async (download: Download) => Buffer.concat(await (await download.createReadStream()).toArray())

test('a SMART Health Link with a passcode: made on the QR Codes tab, opened by a viewer, revoked', async ({ page, person }, testInfo) => {
	test.setTimeout(timeLimit(60_000))
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('First name').fill('Ines')
	await page.getByLabel('Last name').fill('Duarte')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByText('Medical profile created successfully')).toBeVisible()

	// Typed as soon as the tab shows, before its scripts may have arrived: nothing typed is lost when they do.
	await page.goto('/dashboard/qr-codes')
	const card = page.getByRole('region', { name: 'SMART Health Link' })
	await expect(card.getByText('No SMART Health Links yet.')).toBeVisible()
	await card.getByLabel('Label (optional)').fill('For Dr. Lee')
	await card.getByLabel('Passcode (optional)').fill('2468')
	await card.getByLabel('Expires after').selectOption({ label: '7 days' })
	await card.getByRole('button', { name: 'Create SMART Health Link' }).click()
	await expect(page.getByText('SMART Health Link created')).toBeVisible()

	const item = card.getByRole('listitem').filter({ hasText: 'For Dr. Lee' })
	await expect(item.getByText('Active', { exact: true })).toBeVisible()
	await expect(item.getByText('Yes (10 wrong tries left)')).toBeVisible()
	await expect(item.getByText('Never', { exact: true })).toBeVisible()
	const text = await item.getByLabel('Link to copy').inputValue()
	expect(text).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/)
	const payload = JSON.parse(Buffer.from(text.slice('shlink:/'.length), 'base64url').toString('utf8')) as Record<string, unknown>
	expect(payload).toMatchObject({ flag: 'P', label: 'For Dr. Lee', v: 1 })
	const qr = item.getByRole('img', { name: 'QR code of the SMART Health Link For Dr. Lee' })
	await expect(qr).toBeVisible()
	expect(await decodeQr(await qr.screenshot())).toBe(text)
	await expectNoAxeViolations(page, testInfo)

	// At 320 px the card's parts stack and nothing scrolls sideways.
	await page.setViewportSize({ width: 320, height: 800 })
	await expect(qr).toBeVisible()
	expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
	await page.setViewportSize({ width: 1280, height: 720 })

	// The summary itself, as a file, made now.
	const [summary] = await Promise.all([
		page.waitForEvent('download'),
		card.getByRole('link', { name: 'Download International Patient Summary (FHIR JSON)' }).click(),
	])
	const bundle = JSON.parse((await bytesOf(summary)).toString('utf8')) as {
		resourceType: string
		type: string
		entry: Array<{ resource: Record<string, unknown> }>
	}
	expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'document' })
	expect(bundle.entry[0]!.resource).toMatchObject({ resourceType: 'Composition', title: 'International Patient Summary: Ines Duarte' })

	// A viewer on another site asks for the manifest with the passcode; the tab then counts the access.
	const manifest = await page.request.post(String(payload.url), {
		data: { recipient: 'Journey viewer', passcode: '2468' },
		headers: { origin: 'https://viewer.example.org' },
	})
	expect(manifest.status()).toBe(200)
	expect(manifest.headers()['access-control-allow-origin']).toBe('*')
	await page.reload()
	await expect(item.getByText('1 time', { exact: true })).toBeVisible()

	// Revoking asks first, by keyboard alone: the question starts on its way out, and Cancel leads back to Revoke.
	const revoke = item.getByRole('link', { name: 'Revoke' })
	await revoke.focus()
	await page.keyboard.press('Enter')
	const question = page.getByRole('dialog', { name: 'Revoke this SMART Health Link?' })
	await expect(question.getByRole('link', { name: 'Close' })).toBeFocused()
	await expectNoAxeViolations(page, testInfo)
	await page.keyboard.press('Tab')
	await page.keyboard.press('Enter')
	await expect(question).toBeHidden()
	await expect(revoke).toBeFocused()
	await expect(item.getByText('Active', { exact: true })).toBeVisible()
	await page.keyboard.press('Enter')
	await question.getByRole('button', { name: 'Revoke Link' }).press('Enter')
	await expect(page.getByRole('status').filter({ hasText: 'SMART Health Link revoked: it no longer opens anything' })).toBeVisible()
	const ended = card.getByRole('listitem').filter({ hasText: 'For Dr. Lee' })
	await expect(ended.getByText('Revoked', { exact: true })).toBeVisible()
	// Focus is on the link's name, which now says it is revoked.
	await expect(page.locator(':focus')).toHaveText(/^For Dr\. Lee\s*Revoked$/)
	await expect(ended.getByLabel('Link to copy')).toHaveCount(0)
	await expect(ended.getByRole('img')).toHaveCount(0)
	await expect(ended.getByRole('link', { name: 'Revoke' })).toHaveCount(0)
	expect((await page.request.post(String(payload.url), { data: { recipient: 'Journey viewer', passcode: '2468' } })).status()).toBe(404)
})

test('a refused SMART Health Link form keeps the tab, with the message beside the passcode', async ({ page, person }) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('First name').fill('Tomas')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByText('Medical profile created successfully')).toBeVisible()
	await page.goto('/dashboard/qr-codes')
	const card = page.getByRole('region', { name: 'SMART Health Link' })
	// Past the field's own limit: the server's check answers, beside the field, with or without JavaScript.
	await card.getByLabel('Passcode (optional)').evaluate((input: HTMLInputElement) => input.removeAttribute('maxlength'))
	await card.getByLabel('Passcode (optional)').fill('x'.repeat(65))
	await card.getByRole('button', { name: 'Create SMART Health Link' }).click()
	const passcode = card.getByLabel('Passcode (optional)')
	await expect(passcode).toHaveAccessibleDescription(/A passcode can have at most 64 characters$/)
	await expect(passcode).toHaveAttribute('aria-invalid', 'true')
	// The refused passcode has the focus, and the title says there is an error.
	await expect(passcode).toBeFocused()
	await expect(page).toHaveTitle(/^Error: /)
	await expect(card.getByText('No SMART Health Links yet.')).toBeVisible()
})
