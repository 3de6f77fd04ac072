import type { Page, TestInfo } from '@playwright/test'
import { addSmallSticker, claimOnDashboard, expect, expectNoAxeViolations, signIn, test, timeLimit } from './fixtures.ts'

// Every page, and every dialog a URL opens, passes axe: with JavaScript and without it (the no-js project). The pages
// come in small groups, each its own journey, so the groups run side by side.

/** A dialog opened by the URL, else the page. */
const shown = (page: Page, path: string) => (/[?&](dialog|cart)=/.test(path) ? page.getByRole('dialog') : page.locator('main').first())

async function sweep(page: Page, testInfo: TestInfo, paths: string[]) {
	test.setTimeout(timeLimit(60_000))
	for (const path of paths) {
		await page.goto(path)
		await expect(shown(page, path), path).toBeVisible()
		await expectNoAxeViolations(page, testInfo)
	}
}

const publicPages = [
	['/', '/auth', '/login', '/signup', '/team', '/team?dialog=products'],
	['/payment-options', '/donate', '/support', '/donation-success', '/pricing', '/subscribe'],
	['/shop', '/cart', '/request-products', '/order-tracking', '/request-qr', `/review/${'f'.repeat(43)}`],
]
for (const paths of publicPages) {
	test(`axe, signed out: ${paths.join(' ')}`, async ({ page }, testInfo) => sweep(page, testInfo, paths))
}

test('axe: a signed-out claim', async ({ page, sticker }, testInfo) => sweep(page, testInfo, [`/claim/${sticker().pin}`]))

const dialogs = ['add-family', 'add-contact', 'add-allergy', 'add-medication', 'add-condition', 'add-policy', 'dnr', 'support']
const dashboardPages = [
	['/dashboard', ...dialogs.slice(0, 4).map((dialog) => `/dashboard?dialog=${dialog}`)],
	dialogs.slice(4).map((dialog) => `/dashboard?dialog=${dialog}`),
	[
		'/dashboard/profile',
		'/dashboard/profile?dialog=delete-account',
		'/dashboard/giving',
		'/dashboard?subscribed=true',
		'/subscribe?plan=family',
	],
]
for (const paths of dashboardPages) {
	test(`axe, signed in: ${paths.join(' ')}`, async ({ page, person, sticker }, testInfo) => {
		await signIn(page, await person())
		await expect(page).toHaveURL(/\/dashboard$/)
		// A claimed sticker brings a profile, which the medical dialogs need.
		await claimOnDashboard(page, sticker().pin)
		await sweep(page, testInfo, paths)
	})
}

test('axe: the QR codes tab, the cart with a sticker in it, and the responder page', async ({ page, person, sticker }, testInfo) => {
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await claimOnDashboard(page, code.pin)
	await addSmallSticker(page)
	await sweep(page, testInfo, ['/dashboard/qr-codes', '/shop?cart=open', '/cart', new URL(code.scanUrl).pathname])
})

test('axe: the header menu on a phone', async ({ page, person }, testInfo) => {
	await page.setViewportSize({ width: 390, height: 800 })
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.locator('header summary').click()
	await expect(page.getByRole('link', { name: 'Our Team' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
})
