import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'

const banner = (page: Page) => page.getByRole('region', { name: 'Online safety notice' })
const hideCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'hideCyberBanner')?.value

test('the cyber-risk banner: More info opens, Dismiss is remembered across reloads and pages', async ({ page, hasJs }, testInfo) => {
	await page.goto('/payment-options')
	await expect(banner(page)).toContainText('will never ask for your password, PIN or payment details')
	const detail = banner(page).getByText('Use a password you use nowhere else')
	await expect(detail).toBeHidden()
	await banner(page).getByText('More info').click()
	await expect(detail).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	await banner(page).getByRole('button', { name: 'Dismiss', exact: true }).click()
	await expect(banner(page)).toHaveCount(0)
	await expect(page).toHaveURL(/\/payment-options$/)
	expect(await hideCookie(page)).toBe('true')
	if (hasJs) expect(await page.evaluate(() => localStorage.getItem('hideCyberBanner'))).toBe('true')

	await page.reload()
	await expect(page.getByRole('heading', { level: 1, name: 'Payment Options' })).toBeVisible()
	await expect(banner(page)).toHaveCount(0)
	await page.goto('/team')
	await expect(page.getByRole('heading', { level: 1, name: 'Our Team' })).toBeVisible()
	await expect(banner(page)).toHaveCount(0)
})

test('with JavaScript, dismissal kept only in localStorage still hides the banner and restores the cookie', async ({ page, hasJs }) => {
	test.skip(!hasJs, 'localStorage needs JavaScript')
	await page.goto('/team')
	// Before the page's JavaScript runs, Dismiss is the plain form, which sets the cookie alone.
	await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
	await banner(page).getByRole('button', { name: 'Dismiss', exact: true }).click()
	await page.context().clearCookies()
	await page.reload()
	await expect(page.getByRole('heading', { level: 1, name: 'Our Team' })).toBeVisible()
	await expect(banner(page)).toHaveCount(0)
	await expect.poll(() => hideCookie(page)).toBe('true')
})

test('the background logo is decoration only', async ({ page }) => {
	await page.goto('/team')
	const logo = page.locator('body > [aria-hidden="true"]')
	await expect(logo).toHaveCount(1)
	await expect(logo).toHaveCSS('pointer-events', 'none')
	await expect(logo).toHaveCSS('z-index', '-10')
	expect(Number(await logo.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(0.1)
})

test('/team: mission, values, contact, and the product dialog that leads to the shop', async ({ page }, testInfo) => {
	await page.goto('/team')
	await expect(page.getByRole('heading', { level: 1, name: 'Our Team' })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible()
	await expect(page.getByText(/Hit Me Helpers Foundation is a nonprofit/)).toBeVisible()
	for (const value of ['Emergency First', 'Always Free', 'Privacy Protected'])
		await expect(page.getByRole('heading', { level: 3, name: value })).toBeVisible()
	await expect(page.getByRole('link', { name: 'support@hitmehelpers.org' })).toHaveAttribute('href', 'mailto:support@hitmehelpers.org')
	await expectNoAxeViolations(page, testInfo)

	await page.getByRole('link', { name: 'Order Products' }).click()
	const dialog = page.getByRole('dialog', { name: 'Order Medical Alert Products' })
	await expect(dialog).toBeVisible()
	await expect(page).toHaveURL(/\/team\?dialog=products$/)
	const products = dialog.getByRole('listitem').getByRole('link')
	await expect(products).toHaveCount(4)
	for (const name of [
		'Small Medical QR Sticker (2x2 in)',
		'Large Medical QR Sticker (3x3 in)',
		'Medical Alert Card - Acrylic',
		'Medical Alert Card - Metal',
	])
		await expect(dialog.getByRole('link', { name })).toHaveAttribute('href', '/shop')
	await expectNoAxeViolations(page, testInfo)

	await dialog.getByRole('link', { name: 'Close' }).click()
	await expect(dialog).toHaveCount(0)
	await expect(page).toHaveURL(/\/team$/)
})

test('/payment-options: the fees, the method groups by name, and the way on', async ({ page }, testInfo) => {
	await page.goto('/payment-options')
	await expect(page.getByRole('heading', { level: 1, name: 'Payment Options' })).toBeVisible()
	const fees = page.getByRole('region', { name: 'Processing fees' })
	await expect(fees.getByRole('definition')).toHaveText(['2.9% + 30 cents per payment', '3.9% + 30 cents per payment'])
	await expect(fees.getByRole('term')).toHaveText([
		'Standard card, digital wallets and buy now, pay later',
		'International payment methods',
	])
	const groups = {
		Cards: ['Credit and debit cards'],
		'Digital wallets': ['Apple Pay', 'Google Pay', 'Cash App Pay', 'Link'],
		'Buy now, pay later': ['Affirm', 'Afterpay / Clearpay', 'Klarna'],
		International: ['iDEAL', 'Bancontact', 'EPS', 'Sofort', 'Pix'],
	}
	for (const [title, methods] of Object.entries(groups)) {
		const group = page.getByRole('region', { name: title, exact: true })
		await expect(group.getByRole('listitem')).toHaveText(methods)
		await expect(group).toContainText(title === 'International' ? '3.9% + 30 cents' : '2.9% + 30 cents')
	}
	await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard')
	await expect(page.getByRole('link', { name: 'Support', exact: true })).toHaveAttribute('href', '/donate')
	await expect(page.getByRole('link', { name: 'Shop', exact: true })).toHaveAttribute('href', '/shop')
	await expectNoAxeViolations(page, testInfo)
})
