import type { Page } from '@playwright/test'
import { addSmallSticker, expect, signIn, test } from './fixtures.ts'

test('a toast set by an action shows after the redirect, then leaves by itself after 5 s', async ({ page, person }) => {
	await signIn(page, await person())
	await page.getByRole('button', { name: 'Sign Out' }).click()
	const toast = page.getByRole('status').filter({ hasText: 'Logged Out' })
	await expect(toast).toBeVisible()
	await expect(toast).toBeHidden({ timeout: 7_000 })
})

/** How much of the focused control, or of `selector`, the toast hides (0 to 1). */
const hiddenByToast = (page: Page, selector?: string) =>
	page.evaluate((target) => {
		const toast = document.querySelector('[data-toast]')?.getBoundingClientRect()
		const focused = document.activeElement === document.body ? null : document.activeElement
		const el = (target ? document.querySelector(target) : focused)?.getBoundingClientRect()
		if (!toast || !el || el.width * el.height === 0) return 0
		const w = Math.max(0, Math.min(toast.right, el.right) - Math.max(toast.left, el.left))
		const h = Math.max(0, Math.min(toast.bottom, el.bottom) - Math.max(toast.top, el.top))
		return (w * h) / (el.width * el.height)
	}, selector)

test('a toast hides neither the header, nor a dialog’s close button, nor any control that has focus', async ({ page, hasJs }) => {
	await page.setViewportSize({ width: 390, height: 640 })
	await addSmallSticker(page)
	expect(await hiddenByToast(page, 'header')).toBe(0)

	await page.goto('/shop?cart=open')
	// This journey is about where the toast sits: with JavaScript, the cart's own code is in before Apply is pressed.
	if (hasJs) await page.waitForLoadState('networkidle')
	const dialog = page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })
	await dialog.getByLabel('Discount code').fill('nope')
	await dialog.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Invalid discount code' })).toBeVisible()
	// With JavaScript the refusal comes back in the dialog; without it, on the cart's own page.
	if (hasJs) expect(await hiddenByToast(page, '[role=dialog] a[aria-label=Close]')).toBe(0)
	expect(await hiddenByToast(page, 'header')).toBe(0)
	// Every control reached by keyboard while the toast shows is in view and clear of it.
	await page.getByLabel('Discount code').focus()
	for (let i = 0; i < 30; i++) {
		await page.keyboard.press(i < 15 ? 'Tab' : 'Shift+Tab')
		expect(await hiddenByToast(page), await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))).toBe(0)
	}
	// Clicks pass through the toast to what is beneath it; only its dismiss button takes them.
	const box = (await page.locator('[data-toast]').boundingBox())!
	const beneath = await page.evaluate(
		([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-toast]') === null,
		[box.x + 10, box.y + box.height / 2],
	)
	expect(beneath).toBe(true)
	if (hasJs) {
		await page.getByRole('button', { name: 'Dismiss notification' }).click()
		await expect(page.locator('[data-toast]')).toHaveCount(0)
	}
})
