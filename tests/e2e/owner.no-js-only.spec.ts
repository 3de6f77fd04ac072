import JSZip from 'jszip'
import { expect, expectNoAxeViolations, expectWrongTokenAnnounced, rememberSecret, signIn, test, timeLimit } from './fixtures.ts'
import { customerOrder, enterCode, expectWrongCodeAnnounced, OWNER, totp } from './owner-kit.ts'

// The owner's whole fulfilment, without JavaScript: enrol two-factor sign-in, sign in again with a code, make two
// sticker codes, assign them to a new order, print its shipping document, mark it shipped; the customer then sees
// Shipped on the order-tracking page. One owner account (OWNER_EMAIL in the config), so this runs once (no-js only).

test('the owner enrols two-factor, fulfils an order from pending to shipped, and the customer sees Shipped', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	test.setTimeout(timeLimit(120_000))
	const customer = await person()
	const number = await customerOrder(customer, sticker().pin)

	// A signed-in person who is not the owner is turned away.
	await signIn(page, customer)
	await page.goto('/admin')
	await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible()
	await expect(page.getByText('Only the platform owner can access administrative features.')).toBeVisible()
	await page.getByRole('link', { name: 'Admin Access' }).click()
	await expectWrongTokenAnnounced(page)
	await page.getByRole('link', { name: 'Return to Home' }).click()
	await page.getByRole('button', { name: 'Sign Out' }).click()

	// Enrolment: the QR code and the key as text, a code confirms it, ten recovery codes are shown once.
	await signIn(page, OWNER)
	await page.goto('/admin')
	await expect(page).toHaveURL(/\/owner-panel\/two-factor\?redirectTo=%2Fadmin$/)
	await page.getByRole('button', { name: 'Start Setup' }).click()
	await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	const secret = (await page.locator('code').textContent())!.trim()
	rememberSecret(secret)
	await enterCode(page, '000000', 'Confirm and Turn On')
	await expectWrongCodeAnnounced(page)
	// Enrolment spends the previous step, so sign-in can use the next one at once (each step is accepted once). Near
	// a step's end the previous one would leave the window before the server checks it: wait for the next step first.
	const intoStep = Date.now() % 30_000
	if (intoStep > 22_000) await page.waitForTimeout(30_000 - intoStep + 200)
	const enrolmentCode = totp(secret, -1)
	await enterCode(page, enrolmentCode, 'Confirm and Turn On')
	await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10)
	await page.getByRole('link', { name: /Open the Admin Dashboard/ }).click()
	await expect(page.getByRole('heading', { name: 'Overview', exact: true })).toBeVisible()
	await expect(page).toHaveTitle('Overview · Owner dashboard · Hit Me Helpers')

	// A new sign-in asks for the second factor before anything of the admin area.
	await page.getByRole('link', { name: '← Dashboard' }).click()
	await page.getByRole('button', { name: 'Sign Out' }).click()
	await signIn(page, OWNER)
	await page.goto('/admin/qr-management')
	await expect(page.getByRole('heading', { name: 'Enter your sign-in code' })).toBeVisible()
	// The code just used for enrolment is spent; the next step's code works.
	await enterCode(page, enrolmentCode, 'Verify')
	await expectWrongCodeAnnounced(page)
	await enterCode(page, totp(secret, 1), 'Verify')
	await expect(page).toHaveURL(/\/admin\/qr-management$/)
	await expect(page).toHaveTitle('QR Management · Owner dashboard · Hit Me Helpers')
	await expectNoAxeViolations(page, testInfo)

	// Two new sticker codes, as a ZIP of PNGs and a CSV.
	await page.getByLabel('Quantity').fill('2')
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Generate and Download' }).click()])
	const zip = await JSZip.loadAsync(await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks)))
	const csv = await zip.file('codes.csv')!.async('string')
	const rows = csv
		.trim()
		.split(/\r?\n/)
		.slice(1)
		.map((line) => line.split(','))
	expect(rows).toHaveLength(2)
	const [first, second] = rows.map((row) => row[0]!)

	// The new order: pending, then two codes assigned (a wrong entry first gets the spec's words).
	await page.getByRole('link', { name: 'Orders', exact: true }).click()
	await expect(page).toHaveTitle('Orders · Owner dashboard · Hit Me Helpers')
	await page.getByRole('link', { name: `Order ${number}` }).click()
	await expect(page).toHaveTitle(`Order ${number} · Owner dashboard · Hit Me Helpers`)
	await expect(page.getByText('Pending', { exact: true })).toBeVisible()
	await expect(page.getByRole('button', { name: 'Generate Shipping Document' })).toBeDisabled()
	await expectNoAxeViolations(page, testInfo)
	// The sticker the customer chose at checkout has its own card and goes with the order in one click.
	await expect(page.getByRole('heading', { name: 'Shopper’s chosen code' })).toBeVisible()
	await page.getByRole('button', { name: /^Assign Sticker #\d+$/ }).click()
	await expect(page.getByText(/ · the shopper’s chosen code$/)).toBeVisible()
	await page.getByRole('link', { name: 'Assign QR Codes' }).click()
	const dialog = page.getByRole('dialog', { name: 'Assign QR codes' })
	await expect(dialog.getByLabel('QR code IDs')).toBeFocused()
	await dialog.getByLabel('QR code IDs').fill('abc, x')
	await dialog.getByRole('button', { name: 'Assign' }).click()
	await expect(page.getByRole('dialog').getByText('Please enter valid QR code IDs.')).toBeVisible()
	await page.getByRole('dialog').getByLabel('QR code IDs').fill(`${first}, ${second}`)
	await page.getByRole('dialog').getByRole('button', { name: 'Assign' }).click()
	await expect(page.getByText('Processing', { exact: true })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Assign QR Codes' })).toBeFocused()
	await expect(page.getByText(`Code ${first} · PIN`)).toBeVisible()

	// The shipping document opens in a new tab and makes the order fulfilled.
	const [slip] = await Promise.all([
		page.context().waitForEvent('page'),
		page.getByRole('button', { name: 'Generate Shipping Document (opens in a new tab)' }).click(),
	])
	await expect(slip.getByRole('heading', { name: `Packing slip · Order ${number}` })).toBeVisible()
	await expect(slip.getByText('Ada Lovelace')).toBeVisible()
	await expectNoAxeViolations(slip, testInfo)
	await expect(slip.getByRole('img', { name: `QR code ${first}` })).toBeVisible()
	await expect(slip.getByText(/^Chosen by the shopper: Sticker #\d+ .*Assigned to this order\.$/)).toBeVisible()
	const pdf = await slip.request.get(`/admin/order/${new URL(slip.url()).pathname.split('/').at(-1)}/pdf`)
	expect(pdf.headers()['content-type']).toBe('application/pdf')
	await slip.close()
	await page.reload()
	await expect(page.getByText('Fulfilled', { exact: true })).toBeVisible()

	await page.getByRole('button', { name: 'Mark as Shipped' }).click()
	await expect(page.getByText('Shipped', { exact: true })).toBeVisible()
	await expect(page.getByRole('button', { name: 'Mark as Shipped' })).toBeDisabled()

	await page.getByRole('link', { name: 'Security', exact: true }).click()
	await expect(page.getByText('Admin two-factor login')).toBeVisible()
	await expect(page).toHaveTitle('Security · Owner dashboard · Hit Me Helpers')
	await expectNoAxeViolations(page, testInfo)
	// A wrong "Current code" is said beside that field, which has the focus again.
	await page.getByLabel('Current code').first().fill('123456')
	await page.keyboard.press('Enter')
	const current = page.getByLabel('Current code').first()
	await expect(current).toHaveAccessibleDescription(/That code is not right\./)
	await expect(current).toBeFocused()
	await expect(page).toHaveTitle(/^Error: Security · /)

	// The customer's tracking says Shipped.
	await page.goto('/order-tracking')
	await page.getByLabel('Confirmation number').fill(number)
	await page.getByLabel('Email').fill(customer.email)
	await page.getByRole('button', { name: 'Track Order' }).click()
	await expect(page.getByText('Shipped').first()).toBeVisible()
	await expect(page.getByText(/^Your order carries Sticker #\d+, the code you chose at checkout\./)).toBeVisible()
})
