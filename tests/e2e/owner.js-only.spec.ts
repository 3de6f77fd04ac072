import { ADMIN_TOKEN } from '../playwright.config.ts'
import { freePort, startAppServer } from './app-server.ts'
import { expect, expectNoAxeViolations, expectWrongTokenAnnounced, rememberSecret, signIn, test, timeLimit } from './fixtures.ts'
import { customerOrder, expectWrongCodeAnnounced, OWNER, totp } from './owner-kit.ts'

// With JavaScript: a session that presented the admin token moves between the tabs (each titled, focus on its
// heading), opens and leaves the Assign dialog every way there is, and downloads a batch through the page's fetch,
// with a progress bar, and stays on the page; the owner panel takes the token from its form.

test('a token session walks the tabs and the Assign dialog by keyboard, and downloads a batch with a progress bar', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	const number = await customerOrder(await person(), sticker().pin)
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await page.goto('/admin')
	await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible()
	await page.getByRole('link', { name: 'Admin Access' }).click()
	await expectWrongTokenAnnounced(page)
	await page.getByLabel('Admin token').fill(ADMIN_TOKEN)
	await page.getByRole('button', { name: 'Admin Access' }).click()
	await expect(page.getByRole('heading', { name: 'Overview', exact: true })).toBeVisible()
	await expect(page).toHaveTitle('Overview · Owner dashboard · Hit Me Helpers')

	// Every tab names its view in the title and puts focus on its heading, so the change is announced.
	const tabs = page.getByRole('navigation', { name: 'Owner dashboard' })
	const openTab = async (label: string) => {
		await tabs.getByRole('link', { name: label, exact: true }).focus()
		await page.keyboard.press('Enter')
		await expect(page).toHaveTitle(`${label} · Owner dashboard · Hit Me Helpers`)
		await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toBeFocused()
	}
	for (const label of ['Donations', 'QR Scans', 'Traffic', 'Real Users', 'Emails', 'Consent', 'Security', 'Access Record', 'Orders'])
		await openTab(label)

	// On a phone the header stays short (its tools and figures fold away, the tabs scroll sideways) and the list starts high.
	await page.setViewportSize({ width: 320, height: 740 })
	expect((await page.getByRole('banner').boundingBox())!.height).toBeLessThan(120)
	expect((await page.getByRole('heading', { name: 'Orders', exact: true }).boundingBox())!.y).toBeLessThan(500)
	await expectNoAxeViolations(page, testInfo)
	await page.setViewportSize({ width: 1280, height: 720 })

	// The Assign dialog starts on its field and gives focus back to its opener after Escape, Close and Assign.
	await page.getByRole('link', { name: `Order ${number}` }).focus()
	await page.keyboard.press('Enter')
	await expect(page).toHaveTitle(`Order ${number} · Owner dashboard · Hit Me Helpers`)
	const assign = page.getByRole('link', { name: 'Assign QR Codes' })
	const dialog = page.getByRole('dialog', { name: 'Assign QR codes' })
	const field = dialog.getByLabel('QR code IDs')
	await assign.focus()
	await page.keyboard.press('Enter')
	await expect(field).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(dialog).toBeHidden()
	await expect(assign).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(field).toBeFocused()
	await page.keyboard.press('Shift+Tab')
	await expect(dialog.getByRole('link', { name: 'Close' })).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(dialog).toBeHidden()
	await expect(assign).toBeFocused()
	await page.keyboard.press('Enter')
	// The shopper's chosen code is filled in: Enter assigns it.
	await expect(field).toHaveValue(/^\d+$/)
	await page.keyboard.press('Enter')
	await expect(page.getByText(/ · the shopper’s chosen code$/)).toBeVisible()
	await expect(dialog).toBeHidden()
	await expect(assign).toBeFocused()

	await openTab('QR Management')
	await expectNoAxeViolations(page, testInfo)
	await page.getByLabel('Quantity').fill('3')
	await page.getByLabel('Format').selectOption('pdf')
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Generate and Download' }).click()])
	expect(download.suggestedFilename()).toMatch(/^hmh-stickers-batch-\d+-3\.pdf$/)
	await expect(page.getByText('Saved.')).toBeVisible()
	await expect(page).toHaveURL(/\/admin\/qr-management$/)
	await page.reload()
	await expect(page.getByText(/Batch \d+: 3 codes as PDF/)).toBeVisible()
})

// The owner account of an instance of its own (the shared one's belongs to the journey without JavaScript): two-factor
// enrolment, sign-in and the Security tab's codes, from the keyboard; each wrong code is said beside its field.
test('the owner enrols two-factor and signs in with a code from the keyboard; each wrong code is announced', async ({ page }, testInfo) => {
	test.setTimeout(timeLimit(150_000))
	const app = await startAppServer(await freePort(), { OWNER_EMAIL: OWNER.email })
	const url = (path: string) => `${app.baseURL}${path}`
	try {
		await expect.poll(() => app.fixtures().users.length, { timeout: timeLimit(60_000), intervals: [500] }).toBeGreaterThan(0)
		const signInAsOwner = async () => {
			await page.goto(url('/login'))
			await page.getByLabel('Email').fill(OWNER.email)
			await page.getByLabel('Password').fill(OWNER.password)
			await page.keyboard.press('Enter')
			await expect(page).toHaveURL(/\/dashboard$/)
		}
		// Into the field that has focus, replacing what it holds at once (a refused answer may still redraw the form).
		const typeCode = async (code: string) => {
			const focused = page.locator('input:focus')
			await focused.fill(code)
			await focused.press('Enter')
		}

		await signInAsOwner()
		await page.goto(url('/admin'))
		await expect(page).toHaveURL(/\/owner-panel\/two-factor\?redirectTo=%2Fadmin$/)
		await page.getByRole('button', { name: 'Start Setup' }).focus()
		await page.keyboard.press('Enter')
		const code = page.getByLabel('Code', { exact: true })
		await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
		const secret = (await page.locator('code').textContent())!.trim()
		rememberSecret(secret)
		await code.focus()
		await typeCode('000000')
		await expectWrongCodeAnnounced(page)
		await expectNoAxeViolations(page, testInfo)
		// As in the journey without JavaScript: the previous step, unless it is about to leave the window.
		const intoStep = Date.now() % 30_000
		if (intoStep > 22_000) await page.waitForTimeout(30_000 - intoStep + 200)
		const enrolmentCode = totp(secret, -1)
		await typeCode(enrolmentCode)
		await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10)

		// A new sign-in: the spent code is refused and said; the next step's code opens the admin area.
		await page.context().clearCookies()
		await signInAsOwner()
		await page.goto(url('/admin/security'))
		await expect(page.getByRole('heading', { name: 'Enter your sign-in code' })).toBeVisible()
		await code.focus()
		await typeCode(enrolmentCode)
		await expectWrongCodeAnnounced(page)
		await typeCode(totp(secret, 1))
		await expect(page).toHaveURL(/\/admin\/security$/)
		await expect(page).toHaveTitle('Security · Owner dashboard · Hit Me Helpers')

		// The Security tab's "Current code" forms: a wrong code is said beside that field, which gets the focus.
		const current = page.getByLabel('Current code').first()
		await current.focus()
		await typeCode('123456')
		await expect(current).toHaveAccessibleDescription(/That code is not right\./)
		await expect(current).toHaveAttribute('aria-invalid', 'true')
		await expect(current).toBeFocused()
		await expect(page).toHaveTitle(/^Error: Security · /)
		await expectNoAxeViolations(page, testInfo)
	} finally {
		await app.stop()
	}
})
