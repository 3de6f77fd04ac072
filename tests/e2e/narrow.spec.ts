import type { Page } from '@playwright/test'
import { claimOnDashboard, expect, signIn, test } from './fixtures.ts'

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

test('at 320 px the landing page, the dashboard and its tabs, the shop, checkout and the public pages never scroll sideways', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	await page.setViewportSize({ width: 320, height: 800 })
	await page.goto('/')
	expect(await overflow(page), 'landing').toBeLessThanOrEqual(0)
	const user = await person()
	await signIn(page, user)
	await expect(page).toHaveURL(/\/dashboard$/)
	// The header greets the person by name, however narrow the screen.
	await expect(page.locator('header').getByText(user.firstName, { exact: true })).toBeVisible()
	// A claimed code brings the QR Codes tab its colour and text fields, and the access record its first rows.
	await claimOnDashboard(page, sticker().pin)
	for (const path of [
		'/dashboard',
		'/dashboard/qr-codes',
		'/dashboard/profile',
		'/shop',
		'/cart',
		'/request-products',
		'/request-qr',
		'/order-tracking',
		'/team',
	]) {
		await page.goto(path)
		await expect(page.locator('main')).toBeVisible()
		expect(await overflow(page), path).toBeLessThanOrEqual(0)
	}
	await page.goto('/dashboard')
	await testInfo.attach('dashboard at 320 px', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' })

	// The access record's table is wider than the screen: it scrolls in a region the keyboard reaches, named by its caption.
	await page.goto('/dashboard/profile/access-record')
	const records = page.getByRole('region', { name: 'Reads and changes, newest first' })
	await page.getByRole('link', { name: 'Everything' }).focus()
	for (let i = 0; i < 10 && !(await records.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab')
	await expect(records).toBeFocused()
	await page.keyboard.press('ArrowRight')
	await expect.poll(() => records.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
	expect(await overflow(page), 'access record').toBeLessThanOrEqual(0)
})

test('a responder on a 320 px phone: label above value, headings no smaller than the text, nothing under 16 px; a refused "I\'m helping" keeps what was typed', async ({
	page,
	person,
	sticker,
	hasJs,
}) => {
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	const profile = await page.request.post('/api/medical-profile', {
		data: { firstName: 'Rosa', lastName: 'Narrow', height: '165 cm', eyeColor: 'Brown', distinguishingMarks: 'Pacemaker scar, left chest' },
	})
	expect(profile.ok(), await profile.text()).toBe(true)
	await claimOnDashboard(page, code.pin)

	const scanPath = new URL(code.scanUrl).pathname
	await page.setViewportSize({ width: 320, height: 700 })
	await page.goto(scanPath)
	expect(await overflow(page)).toBeLessThanOrEqual(0)
	const [mark, value] = [page.getByText('Distinguishing marks', { exact: true }), page.getByText('Pacemaker scar, left chest')]
	const [markBox, valueBox] = [(await mark.boundingBox())!, (await value.boundingBox())!]
	expect(valueBox.y, 'the value sits below its label').toBeGreaterThanOrEqual(markBox.y + markBox.height - 1)
	expect(valueBox.width, 'the value has the width of the screen').toBeGreaterThan(250)
	const sizes = await page.evaluate(() => {
		const px = (el: Element) => parseFloat(getComputedStyle(el).fontSize)
		const texts = [...document.body.querySelectorAll('*')].filter((el) =>
			[...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim()),
		)
		return {
			smallest: Math.min(...texts.map(px)),
			heading: Math.min(...[...document.querySelectorAll('h2')].map(px)),
			body: px(document.body),
		}
	})
	expect(sizes.smallest).toBeGreaterThanOrEqual(16)
	expect(sizes.heading).toBeGreaterThanOrEqual(sizes.body)

	// The status line "Add my location" fills is in the page from the start, so that what it says is announced.
	expect(await (await page.request.get(scanPath)).text()).toContain('<p role="status"></p>')
	const form = page.getByRole('region', { name: 'Helping this person now?' })
	if (hasJs) {
		await page.context().grantPermissions(['geolocation'])
		await page.context().setGeolocation({ latitude: 40.7128, longitude: -74.006, accuracy: 20 })
		const locate = form.getByRole('button', { name: 'Add my location' })
		await locate.focus()
		await page.keyboard.press('Enter')
		await expect(form.getByRole('status')).toHaveText('Your location will be sent (within 20 m).')
		// Focus stays where it was.
		await expect(locate).toBeFocused()
	}

	// Text longer than the limit (a browser that does not hold to maxlength) comes back as typed, the error beside it.
	const where = form.getByLabel('Where are you?')
	await expect(form.getByText('Up to 300 characters.')).toBeVisible()
	const long = `Corner of ${'Main Street and '.repeat(20)}Elm Street`
	await where.evaluate((input) => input.removeAttribute('maxlength'))
	await where.fill(long)
	await form.getByLabel('Hospital they are being taken to').fill("St. Mary's")
	await form.getByRole('button', { name: 'I’m helping: alert their family' }).click()
	expect(await page.title()).toMatch(/^Error: /)
	const refused = page.getByRole('region', { name: 'Helping this person now?' })
	const whereAgain = refused.getByLabel('Where are you?')
	await expect(whereAgain).toBeFocused()
	await expect(whereAgain).toHaveValue(long)
	await expect(whereAgain).toHaveAttribute('aria-invalid', 'true')
	await expect(whereAgain).toHaveAccessibleDescription(
		`Up to 300 characters. This has ${long.length} characters: please shorten it to 300 or fewer.`,
	)
	await expect(refused.getByLabel('Hospital they are being taken to')).toHaveValue("St. Mary's")
	await whereAgain.fill('Corner of Main Street and Elm Street')
	await refused.getByRole('button', { name: 'I’m helping: alert their family' }).click()
	await expect(page).toHaveURL(/\/helping\?lang=en$/)
	await expect(page.getByText("Hospital: St. Mary's")).toBeVisible()
})
