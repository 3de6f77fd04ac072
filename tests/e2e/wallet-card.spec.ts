import { execFileSync } from 'node:child_process'
import type { Download, Page } from '@playwright/test'
import { decodeQr } from '../zbar.ts'
import { claimOnDashboard, expect, expectNoAxeViolations, signIn, test, timeLimit } from './fixtures.ts'

// The wallet card (PDF), the fridge sheet (PDF) and the lock-screen image (PNG) from the Medical Info tab: plain GET forms
// whose answer is the file, so the page stays where it is, with JavaScript and without.

const bytesOf = async (download: Download) => Buffer.concat(await (await download.createReadStream()).toArray())

/** Submits the form whose button is named `button` and returns the file it answered with. */
async function downloadWith(page: Page, button: string) {
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()])
	return download
}

test('no code yet: the tab says to link one; with a claimed sticker it downloads the wallet card, the fridge sheet and the lock-screen image', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	test.setTimeout(timeLimit(60_000))
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.getByLabel('First name').fill('Camila')
	await page.getByLabel('Last name').fill('Reyes')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByText('Medical profile created successfully')).toBeVisible()
	await page.getByRole('link', { name: 'Add Allergy' }).click()
	const dialog = page.getByRole('dialog')
	await dialog.getByLabel('Allergen').fill('Penicillin')
	await dialog.getByLabel('Severity').selectOption('Severe')
	await dialog.getByRole('button', { name: 'Add Allergy' }).click()
	await expect(page.getByText('Allergy added successfully')).toBeVisible()

	// Without an active code there is nothing to put on a card: the tab says so and leads to the QR Codes tab.
	await page.goto('/medical-info')
	const downloads = page.getByRole('region', { name: 'Wallet card, fridge sheet and lock screen' })
	await expect(downloads.getByText('Link an active QR code to this profile first.')).toBeVisible()
	await expect(downloads.getByRole('button')).toHaveCount(0)
	await expect(downloads.getByRole('link', { name: 'Go to QR Codes' })).toHaveAttribute('href', '/dashboard/qr-codes')

	await page.goto('/dashboard')
	await claimOnDashboard(page, code.pin)

	await page.goto('/medical-info')
	await expect(downloads.getByRole('button', { name: 'Download wallet card (PDF)' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	await downloads.getByLabel('Card language').selectOption('es')
	const card = await downloadWith(page, 'Download wallet card (PDF)')
	expect(card.suggestedFilename()).toBe('hmh-wallet-card-camila-reyes-es.pdf')
	const pdf = (await card.path())!
	const text = execFileSync('pdftotext', [pdf, '-']).toString('utf8').replace(/\s+/g, ' ')
	for (const words of ['Camila Reyes', 'Recorte por las marcas y doble por la mitad', 'No hay DNR registrado', 'Penicillin (Grave)'])
		expect(text).toContain(words)
	const info = execFileSync('pdfinfo', [pdf]).toString()
	expect(info).toMatch(/^Pages:\s+1$/m)
	expect(info).toMatch(/^Page size:\s+612 x 792 pts \(letter\)/m)

	// The fridge sheet, beside the wallet card: one page in the chosen language and paper, its code the sticker's.
	await expect(downloads.getByRole('button', { name: 'Download fridge sheet (PDF)' })).toBeVisible()
	await downloads.getByLabel('Sheet language').selectOption('fr')
	await downloads.getByLabel('Paper size').selectOption('a4')
	const fridge = await downloadWith(page, 'Download fridge sheet (PDF)')
	expect(fridge.suggestedFilename()).toBe('hmh-fridge-sheet-camila-reyes-fr-a4.pdf')
	const sheetPdf = (await fridge.path())!
	const sheetText = execFileSync('pdftotext', [sheetPdf, '-']).toString('utf8').replace(/\s+/g, ' ')
	for (const words of ['Camila Reyes', 'Aucun DNR enregistré', 'Penicillin (Grave)', 'Vial of Life à l’intérieur : voir le réfrigérateur'])
		expect(sheetText).toContain(words)
	const sheetInfo = execFileSync('pdfinfo', [sheetPdf]).toString()
	expect(sheetInfo).toMatch(/^Pages:\s+1$/m)
	expect(sheetInfo).toMatch(/^Page size:\s+595\.2\d* x 841\.89 pts \(A4\)/m)
	const sheetPage = execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', sheetPdf])
	expect(await decodeQr(sheetPage)).toBe(code.scanUrl)

	await downloads.getByLabel('Screen size').selectOption('1080')
	const image = await downloadWith(page, 'Download lock-screen image')
	expect(image.suggestedFilename()).toBe('hmh-lock-screen-camila-reyes-1080x2400.png')
	const png = await bytesOf(image)
	expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 2400])
	expect(await decodeQr(png)).toBe(code.scanUrl)

	// A download leaves the page as it was.
	await expect(page).toHaveURL(/\/medical-info$/)
	await expect(page.getByRole('heading', { name: 'Medical Information', level: 1 })).toBeVisible()

	// At 320 px the card's forms stack and nothing scrolls sideways.
	await page.setViewportSize({ width: 320, height: 800 })
	await expect(downloads.getByLabel('Screen size')).toBeVisible()
	expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
	await page.setViewportSize({ width: 1280, height: 720 })

	// The QR Codes tab offers the same, per profile.
	await page.goto('/dashboard/qr-codes')
	await expect(
		page
			.getByRole('region', { name: 'Wallet card, fridge sheet and lock screen' })
			.getByRole('button', { name: 'Download lock-screen image' }),
	).toBeVisible()
	await expect(
		page
			.getByRole('region', { name: 'Wallet card, fridge sheet and lock screen' })
			.getByRole('button', { name: 'Download fridge sheet (PDF)' }),
	).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
})
