import type { Page } from '@playwright/test'
import { addSmallSticker, claimOnDashboard, expect, expectNoAxeViolations, signIn, test, timeLimit } from './fixtures.ts'

/** A dialog opened by the URL, else the page. */
const shown = (page: Page, path: string) => (/[?&](dialog|cart)=/.test(path) ? page.getByRole('dialog') : page.locator('main').first())

// Every page, and every dialog a URL opens, passes axe: with JavaScript and without it (the no-js project).

test('axe: the public pages and a signed-out claim', async ({ page, sticker }, testInfo) => {
	test.setTimeout(timeLimit(60_000))
	for (const path of [
		'/',
		'/auth',
		'/login',
		'/signup',
		'/team',
		'/team?dialog=products',
		'/payment-options',
		'/donate',
		'/donation-success',
		'/pricing',
		'/subscribe',
		'/shop',
		'/cart',
		'/request-products',
		'/order-tracking',
		'/request-qr',
		`/claim/${sticker().pin}`,
	]) {
		await page.goto(path)
		await expect(shown(page, path), path).toBeVisible()
		await expectNoAxeViolations(page, testInfo)
	}
})

test('axe: the dashboard, its tabs and every dialog, the cart, and the responder page', async ({ page, person, sticker }, testInfo) => {
	test.setTimeout(timeLimit(90_000))
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await claimOnDashboard(page, code.pin)
	await addSmallSticker(page)
	const dialogs = ['add-family', 'add-contact', 'add-allergy', 'add-medication', 'add-condition', 'add-policy', 'dnr', 'support']
	for (const path of [
		'/dashboard',
		...dialogs.map((dialog) => `/dashboard?dialog=${dialog}`),
		'/dashboard/qr-codes',
		'/dashboard/profile',
		'/dashboard/profile?dialog=delete-account',
		'/dashboard/giving',
		'/dashboard?subscribed=true',
		'/subscribe?plan=family',
		'/shop?cart=open',
		'/cart',
		new URL(code.scanUrl).pathname,
	]) {
		await page.goto(path)
		await expect(shown(page, path), path).toBeVisible()
		await expectNoAxeViolations(page, testInfo)
	}
	await page.setViewportSize({ width: 390, height: 800 })
	await page.goto('/dashboard')
	await page.locator('header summary').click()
	await expect(page.getByRole('link', { name: 'Our Team' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
})
