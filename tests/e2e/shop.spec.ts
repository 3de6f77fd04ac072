import type { Locator, Page } from '@playwright/test'
import { freePort, startAppServer } from './app-server.ts'
import { addSmallSticker, claimOnDashboard, expect, expectNoAxeViolations, signIn, test, timeLimit } from './fixtures.ts'
import { startSmtpServer } from './smtp-server.ts'

async function addToCart(page: Page, product: string, options: { color?: string; shape?: 'Circular' | 'Square'; quantity?: number } = {}) {
	const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: product, exact: true }) })
	if (options.color) await card.getByLabel('Colour', { exact: true }).selectOption({ label: options.color })
	if (options.shape) await card.getByLabel(options.shape).check()
	if (options.quantity) await card.getByLabel('Quantity').fill(String(options.quantity))
	await card.getByRole('button', { name: 'Add to Cart' }).click()
	await expect(page.getByText(`${product} was added to your cart.`).last()).toBeVisible()
}

/** A claimed sticker is listed with the profile it shows: "Sticker PIN · Name". */
async function chooseCode(form: Locator, pin: string) {
	const select = form.getByLabel('QR code for this order')
	const label = await select.locator('option', { hasText: `Sticker ${pin} · ` }).textContent()
	await select.selectOption({ label: label! })
}

// By its place, not its role: without JavaScript the header is hidden while the cart dialog is open.
const badge = (page: Page) => page.locator('header [data-testid="cart-badge"]')

test('the catalogue: four products with their options, a preview, and the 25/16 custom-text rule', async ({ page, hasJs }, testInfo) => {
	await page.goto('/shop')
	for (const name of [
		'Small Medical QR Sticker (2x2 in)',
		'Large Medical QR Sticker (3x3 in)',
		'Medical Alert Card - Acrylic',
		'Medical Alert Card - Metal',
	])
		await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Medical Alert Card - Metal' }) })
	await expect(card.getByLabel('Add a coloured QR sticker instead of engraving')).toBeVisible()
	const customText = card.getByLabel('Custom text (optional)')
	await customText.fill('ABCDEFGHIJKLMNOPQ')
	// Add to Cart is never off: the refusal is said beside the text, which takes the focus, and nothing is added.
	await card.getByRole('button', { name: 'Add to Cart' }).click()
	await expect(customText).toHaveAccessibleDescription(/Too long: 17\/16 letters$/)
	await expect(customText).toHaveAttribute('aria-invalid', 'true')
	await expect(customText).toBeFocused()
	await expect(page).toHaveTitle(/^Error: /)
	await expect(badge(page)).toHaveCount(0)
	await card.getByLabel('Custom text (optional)').fill('CALL 555 0100 NOW')
	await card.getByLabel('Colour', { exact: true }).selectOption({ label: 'Medical Blue' })
	if (!hasJs) await card.getByRole('button', { name: 'Preview' }).click()
	await expect(page.getByRole('img', { name: 'Preview of the Medical Alert Card - Metal QR code' })).toHaveAttribute(
		'src',
		/color=%232563EB.*customText=CALL/,
	)
})

test('cart, discount and a free order: from a guest cart to the confirmation e-mail', async ({ page, hasJs }, testInfo) => {
	test.setTimeout(timeLimit(120_000))
	const smtp = await startSmtpServer()
	const app = await startAppServer(await freePort(), { SMTP_URL: smtp.url })
	const { users, codes } = app.fixtures()
	// This instance and its database are this test's own.
	const [user, code] = [users[0]!, codes[0]!]
	try {
		await page.goto(`${app.baseURL}/shop`)
		await addToCart(page, 'Small Medical QR Sticker (2x2 in)')
		await addToCart(page, 'Small Medical QR Sticker (2x2 in)', { color: 'Medical Blue', shape: 'Square' })
		await addToCart(page, 'Small Medical QR Sticker (2x2 in)', { color: 'Medical Red', shape: 'Circular', quantity: 2 })
		await expect(badge(page)).toHaveText(/4$/)

		// From the keyboard the cart starts on its heading (never on a hidden button that Enter would submit), and Escape
		// gives focus back to the Cart button.
		const cartButton = page.getByRole('link', { name: /^Cart/ })
		await cartButton.focus()
		await page.keyboard.press('Enter')
		const dialog = page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })
		await expect(dialog.getByRole('heading', { name: 'Shopping Cart & Checkout' })).toBeFocused()
		if (hasJs) {
			await page.keyboard.press('Escape')
			await expect(dialog).toBeHidden()
			await expect(cartButton).toBeFocused()
			await page.keyboard.press('Enter')
			await expect(dialog.getByRole('heading', { name: 'Shopping Cart & Checkout' })).toBeFocused()
		}
		await expect(dialog.getByRole('listitem')).toHaveCount(2)
		await expect(dialog.getByRole('status').filter({ hasText: 'Quantity of Small Medical QR Sticker (2x2 in)' }).first()).toHaveText(
			/\(2x2 in\): 3$/,
		)
		await dialog.getByRole('button', { name: 'One more Small Medical QR Sticker (2x2 in)' }).first().click()
		await expect(dialog.getByRole('status').filter({ hasText: 'Quantity of Small Medical QR Sticker (2x2 in)' }).first()).toHaveText(
			/\(2x2 in\): 4$/,
		)
		await dialog.getByRole('button', { name: 'One fewer Small Medical QR Sticker (2x2 in)' }).last().click()
		await expect(dialog.getByRole('listitem')).toHaveCount(1)
		await expect(badge(page)).toHaveText(/4$/)
		await expectNoAxeViolations(page, testInfo)

		await dialog.getByRole('button', { name: 'Sign In to Check Out' }).click()
		await expect(page).toHaveURL(/\/login\?redirectTo=/)
		await page.getByLabel('Email').fill(user.email)
		await page.getByLabel('Password').fill(user.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })).toBeVisible()
		await expect(badge(page)).toHaveText(/4$/)

		// Without a code of their own, the shopper cannot check out.
		await expect(dialog.getByText('Create a QR Code First')).toBeVisible()
		await page.goto(`${app.baseURL}/dashboard`)
		await claimOnDashboard(page, code.pin)
		await page.goto(`${app.baseURL}/shop?cart=open`)

		// Apply is never off: a blank code is answered beside the field, which takes the focus (without JavaScript on
		// /cart, the cart's own page).
		await dialog.getByRole('button', { name: 'Apply' }).click()
		const discount = page.getByLabel('Discount code')
		await expect(discount).toHaveAccessibleDescription('Please enter a discount code')
		await expect(discount).toHaveAttribute('aria-invalid', 'true')
		await expect(discount).toBeFocused()
		await expect(page).toHaveTitle(/^Error: /)
		if (!hasJs) await page.goto(`${app.baseURL}/shop?cart=open`)
		await dialog.getByLabel('Discount code').fill('nope')
		await dialog.getByRole('button', { name: 'Apply' }).click()
		await expect(page.getByText('Invalid discount code').first()).toBeVisible()
		await page.goto(`${app.baseURL}/shop?cart=open`)
		await dialog.getByLabel('Discount code').fill('free72')
		await dialog.getByRole('button', { name: 'Apply' }).click()
		await expect(dialog.getByText('FREE72', { exact: true })).toBeVisible()
		await dialog.getByRole('button', { name: 'Remove', exact: true }).click()
		await expect(page.getByText('Discount code has been removed from your order')).toBeVisible()
		await dialog.getByLabel('Discount code').fill('FREE72')
		await dialog.getByRole('button', { name: 'Apply' }).click()
		await expect(dialog.getByText('FREE72', { exact: true })).toBeVisible()

		await dialog.getByRole('button', { name: 'Complete FREE Order' }).click()
		await expect(page.getByText('Please add items to cart and select a QR code').first()).toBeVisible()
		// Without JavaScript a refused checkout lands on the same view at /cart.
		const form = hasJs ? page.getByRole('dialog', { name: 'Shopping Cart & Checkout' }) : page.locator('main')
		await chooseCode(form, code.pin)
		await form.getByRole('button', { name: 'Complete FREE Order' }).click()
		await expect(page.getByText('Please complete your address information').first()).toBeVisible()
		await expect(form.getByLabel('Name')).toHaveAccessibleDescription('Name is required')
		await form.getByLabel('Country').selectOption('JP')
		if (!hasJs) await form.getByRole('button', { name: 'Update shipping options' }).click()
		await expect(form.getByLabel(/^Overnight/)).toHaveCount(0)
		await expect(form.getByLabel(/^Express \(7-10 business days\)/)).toBeVisible()
		await form.getByLabel('Country').selectOption('US')
		if (!hasJs) await form.getByRole('button', { name: 'Update shipping options' }).click()

		await form.getByLabel('Search for your address').fill('12 Elm Street')
		if (!hasJs) await form.getByRole('button', { name: 'Search', exact: true }).click()
		await form.getByRole('list', { name: 'Address suggestions' }).getByRole('button', { name: '12 Elm Street' }).click()
		await expect(form.getByText('Auto-filled ✓')).toBeVisible()
		await expect(form.getByLabel('Address', { exact: true })).toHaveValue('12 Elm Street')
		await form.getByLabel('Name').fill('Rosa Shopper')
		await form.getByLabel('City').fill('Springfield')
		await form.getByLabel('Postal code').fill('62701')
		await form.getByLabel(/^Express/).check()
		await chooseCode(form, code.pin)
		await form.getByRole('button', { name: 'Complete FREE Order' }).click()

		await expect(page).toHaveURL(/\/order-complete\?order=HMH-[A-Z0-9]{8}&free72=true$/)
		const number = new URL(page.url()).searchParams.get('order')!
		await expect(page.getByRole('heading', { name: 'Order Complete!' })).toBeVisible()
		// The promise follows the method chosen, as the e-mail does.
		await expect(
			page.getByText(/with Express \([0-9]+-[0-9]+ business days\) shipping, expect it by [A-Z][a-z]+ \d{1,2}, \d{4}\./),
		).toBeVisible()
		await expect(page.getByText(number, { exact: true })).toBeVisible()
		await expect(page.getByText('Small Medical QR Sticker (2x2 in) × 4')).toBeVisible()
		await expect(page.getByText(/Free order code FREE72 applied/)).toBeVisible()
		await expect(badge(page)).toHaveCount(0)
		await expectNoAxeViolations(page, testInfo)

		// Tracking: an empty number, then a wrong e-mail (the same answer as an unknown number), then the real pair.
		await page.getByRole('link', { name: 'Track Your Order' }).click()
		await page.getByLabel('Confirmation number').fill('')
		await page.getByLabel('Email').fill(user.email)
		await page.getByRole('button', { name: 'Track Order' }).click()
		await expect(page.getByText('Please enter your confirmation number to track your order').first()).toBeVisible()
		await page.getByLabel('Confirmation number').fill(number)
		await page.getByLabel('Email').fill('someone-else@e2e.example')
		await page.getByRole('button', { name: 'Track Order' }).click()
		await expect(
			page.getByText('No order matches that confirmation number and e-mail address. Please check both and try again.').first(),
		).toBeVisible()
		await page.getByLabel('Confirmation number').fill(number.toLowerCase())
		await page.getByLabel('Email').fill(user.email)
		await page.getByRole('button', { name: 'Track Order' }).click()
		await expect(page.getByText('Order Found!')).toBeVisible()
		const result = page.getByRole('region', { name: `Order ${number}` })
		await expect(result.getByText('Order Placed: done')).toBeAttached()
		await expect(result.getByText('Processing: not yet')).toBeAttached()
		await expect(result.getByText('Small Medical QR Sticker (2x2 in) × 4')).toBeVisible()
		await expectNoAxeViolations(page, testInfo)
		await expect
			.poll(() => smtp.received.find((m) => m.to.includes(user.email) && m.subject.includes(number))?.subject, { timeout: 15_000 })
			.toBe(`Your order ${number} is confirmed`)
		const mail = smtp.received.find((m) => m.subject.includes(number))!
		expect(mail.text).toContain('4 × Small Medical QR Sticker (2x2 in)')
		expect(mail.text).toContain('12 Elm Street')
	} finally {
		await app.stop()
		await smtp.close()
	}
})

test('a second tab sees the cart badge change', async ({ page, hasJs }) => {
	test.skip(!hasJs, 'Tabs follow each other through browser storage events, which need JavaScript.')
	await page.goto('/shop')
	const other = await page.context().newPage()
	await other.goto('/shop')
	await expect(badge(other)).toHaveCount(0)
	await addToCart(page, 'Large Medical QR Sticker (3x3 in)', { quantity: 3 })
	await expect(badge(other)).toHaveText(/3$/)
	await other.close()
})

test('an unparsable stored cart is dropped, not fatal', async ({ page, hasJs }) => {
	test.skip(!hasJs, 'Browser storage is only read with JavaScript.')
	await page.goto('/shop')
	await page.evaluate(() => localStorage.setItem('hmh-cart', '{not json'))
	await page.reload()
	await expect(page.getByRole('heading', { name: 'Shop', level: 1 })).toBeVisible()
	// The stored cart is read once the page's JavaScript runs, after the heading is already painted from the HTML.
	await expect.poll(() => page.evaluate(() => localStorage.getItem('hmh-cart'))).toBe('[]')
})

test('request products: a QR URL and a sticker size are required; the product joins the cart', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	const code = sticker()
	await signIn(page, await person())
	await page.getByLabel('First name').fill('Ruth')
	await page.getByLabel('Last name').fill('Request')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(page.getByText('Medical profile created successfully')).toBeVisible()
	await claimOnDashboard(page, code.pin)

	await page.goto('/dashboard/qr-codes')
	await page.getByRole('link', { name: 'Order free stickers and cards' }).click()
	await expect(page.getByRole('heading', { name: 'Request Medical Alert Products' })).toBeVisible()
	await expect(page.getByLabel('QR code URL')).toHaveValue(/\/scan\/[A-Za-z0-9_-]{24}$/)
	await expect(page.getByRole('img', { name: 'QR code preview' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)

	const stickers = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Medical Alert Stickers' }) })
	await stickers.getByRole('button', { name: 'Add to Cart' }).click()
	await expect(page.getByText('Please select a sticker size before adding to cart.').first()).toBeVisible()
	await page.getByLabel('QR code URL').fill('not a url')
	await stickers.getByLabel('Large (3x3 in)').check()
	await stickers.getByRole('button', { name: 'Add to Cart' }).click()
	await expect(page.getByText('Please enter a valid QR code URL.').first()).toBeVisible()
	await page.getByLabel('QR code URL').fill(code.scanUrl)
	await stickers.getByLabel('Large (3x3 in)').check()
	await stickers.getByRole('button', { name: 'Add to Cart' }).click()
	await expect(page.getByText('Medical Alert Stickers was added to your cart.')).toBeVisible()
	await expect(badge(page)).toHaveText(/1$/)
})

test('a dropped connection keeps the cart and what was typed, and says what failed', async ({ page, hasJs, person, sticker }) => {
	test.skip(!hasJs, 'Without JavaScript the browser itself reports a failed page load.')
	const code = sticker()
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	await claimOnDashboard(page, code.pin)
	await page.goto('/shop')
	await addToCart(page, 'Medical Alert Card - Acrylic')
	await page.getByRole('link', { name: /^Cart/ }).click()
	const dialog = page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })
	await chooseCode(dialog, code.pin)
	await dialog.getByLabel('Name', { exact: true }).fill('Ada Offline')
	await dialog.getByLabel('Discount code').fill('FREE72')

	// The connection drops once the page has everything it loads (the code behind the cart's forms comes after it opens).
	await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
	await page.waitForLoadState('networkidle')
	await page.context().setOffline(true)
	await dialog.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Failed to validate discount code' })).toBeVisible()
	await dialog.getByRole('button', { name: 'Complete FREE Order' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Failed to process checkout' })).toBeVisible()
	await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('Ada Offline')
	await expect(dialog.getByText('Medical Alert Card - Acrylic', { exact: true })).toBeVisible()

	await page.context().setOffline(false)
	await dialog.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText('Discount Applied!')).toBeVisible()
	await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('Ada Offline')
})

test('Apply pressed while the cart’s own code is still on its way still answers', async ({ page, hasJs }) => {
	test.skip(!hasJs, 'Without JavaScript every press is a plain form post.')
	await addSmallSticker(page)
	let release = () => {}
	const held = new Promise<void>((resolve) => (release = resolve))
	await page.route(/\/assets\/cart-dialog-[^/]*\.js$/, async (route) => {
		await held
		await route.continue()
	})
	await page.goto('/shop?cart=open')
	await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
	const dialog = page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })
	await dialog.getByLabel('Discount code').fill('nope')
	// The code arrives while the press is handled: the server's form posts as it would without JavaScript.
	setTimeout(release, 10)
	await dialog.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Invalid discount code' })).toBeVisible()
	await expect(page.getByLabel('Discount code')).toHaveAttribute('aria-invalid', 'true')
})

test('a discount code typed before the page’s JavaScript runs is still there once it does', async ({ page, hasJs }) => {
	test.skip(!hasJs, 'Without JavaScript nothing replaces what was typed.')
	await page.goto('/shop')
	await addToCart(page, 'Small Medical QR Sticker (2x2 in)')
	let release = () => {}
	const held = new Promise<void>((resolve) => (release = resolve))
	await page.route(/\/assets\/.*\.js$/, async (route) => {
		await held
		await route.continue()
	})
	await page.goto('/shop?cart=open', { waitUntil: 'commit' })
	const dialog = page.getByRole('dialog', { name: 'Shopping Cart & Checkout' })
	await dialog.getByLabel('Discount code').fill('nope')
	release()
	await page.waitForLoadState('networkidle')
	await expect(dialog.getByLabel('Discount code')).toHaveValue('NOPE')
	await dialog.getByRole('button', { name: 'Apply' }).click()
	await expect(dialog.getByText('Invalid discount code')).toBeVisible()
})
