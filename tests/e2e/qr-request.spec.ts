import type { Page } from '@playwright/test'
import { freePort, startAppServer } from './app-server.ts'
import { expect, expectNoAxeViolations, test, timeLimit } from './fixtures.ts'
import { startSmtpServer } from './smtp-server.ts'

// A second app instance sends its mail to a real SMTP server on loopback, so the confirmation is seen arriving.
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let app: Awaited<ReturnType<typeof startAppServer>>

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
	test.setTimeout(timeLimit(90_000))
	smtp = await startSmtpServer()
	app = await startAppServer(await freePort(), { SMTP_URL: smtp.url })
})

test.afterAll(async () => {
	await app?.stop()
	await smtp?.close()
})

async function fillAddress(page: Page) {
	await page.getByLabel('Street address').fill('12 Harbor Road')
	await page.getByLabel('City').fill('Portland')
	await page.getByLabel('State/Province').fill('ME')
	await page.getByLabel('Postal code').fill('04101')
}

function mailTo(address: string) {
	return expect.poll(() => smtp.received.find((m) => m.to.includes(address)), { timeout: 15_000 })
}

test('a guest requests a free QR code; a missing field is named; the confirmation e-mail reaches the SMTP server', async ({
	page,
	hasJs,
}, testInfo) => {
	const email = `guest-${testInfo.project.name}-${Date.now()}@e2e.example`
	await page.goto(`${app.baseURL}/request-qr`)
	await expect(page.getByRole('heading', { level: 1, name: 'Request a Free QR Code' })).toBeVisible()
	await expect(page.getByLabel('Country')).toHaveValue('United States')
	await expect(page.getByLabel('Quantity')).toHaveValue('1')
	await expectNoAxeViolations(page, testInfo)

	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Quantity').fill('3')
	await fillAddress(page)
	await page.getByRole('button', { name: 'Submit Request' }).click()
	await expect(page.getByLabel('Full name')).toHaveAccessibleDescription('Full name is required')
	await expect(page.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true')
	if (!hasJs) await expect(page.getByRole('alert').filter({ hasText: 'Request Failed' })).toContainText('Full name is required')
	await expect(page).toHaveURL(`${app.baseURL}/request-qr`)
	await expectNoAxeViolations(page, testInfo)

	await page.getByLabel('Full name').fill('Ada Guest')
	await page.getByLabel('Notes (optional)').fill('Please send one card-size code.')
	await page.getByRole('button', { name: 'Submit Request' }).click()

	await expect(page).toHaveURL(`${app.baseURL}/request-qr/sent`)
	await expect(page.getByRole('status').filter({ hasText: 'Request Submitted!' })).toContainText('Your QR code request has been received.')
	await expect(page.getByText('Your 3 free QR codes will be mailed within 5-7 business days.')).toBeVisible()
	await expect(page.getByText('Your request is in our fulfilment queue.')).toBeVisible()
	await expect(page.getByText(`A confirmation e-mail is on its way to ${email}.`)).toBeVisible()
	await expect(page.getByText(/Your code is personalised/)).toBeVisible()
	await expect(page.getByRole('link', { name: 'Go to Sign In' })).toHaveAttribute('href', '/auth')
	await expectNoAxeViolations(page, testInfo)

	await mailTo(email).toMatchObject({ to: [email], subject: 'We received your free QR code request' })
	const mail = smtp.received.find((m) => m.to.includes(email))!
	expect(mail.text).toContain('Hello Ada Guest')
	expect(mail.text).toContain('3 free emergency medical QR codes')
	expect(mail.text).toContain('within 5-7 business days')
})

test('a signed-in person finds their name and e-mail filled in and is led back to the dashboard', async ({ page }) => {
	// An account of this test's own instance, which no other test uses.
	const user = app.fixtures().users[0]!
	await page.goto(`${app.baseURL}/login`)
	await page.getByLabel('Email').fill(user.email)
	await page.getByLabel('Password').fill(user.password)
	await page.getByRole('button', { name: 'Sign In' }).click()
	await expect(page).toHaveURL(`${app.baseURL}/dashboard`)

	await page.goto(`${app.baseURL}/request-qr`)
	await expect(page.getByLabel('Email')).toHaveValue(user.email)
	await expect(page.getByLabel('Full name')).toHaveValue(`${user.firstName} Example`)
	await fillAddress(page)
	await page.getByLabel('Country').selectOption('Canada')
	await page.getByRole('button', { name: 'Submit Request' }).click()

	await expect(page).toHaveURL(`${app.baseURL}/request-qr/sent`)
	await expect(page.getByText('Your free QR code will be mailed within 5-7 business days.')).toBeVisible()
	await page.getByRole('link', { name: 'Go to Dashboard' }).click()
	await expect(page).toHaveURL(`${app.baseURL}/dashboard`)

	await mailTo(user.email).toMatchObject({ to: [user.email], subject: 'We received your free QR code request' })
	expect(smtp.received.find((m) => m.to.includes(user.email))!.text).toContain('Portland, ME 04101\nCanada')
})

test('the confirmation screen is not reachable without a submission', async ({ page }) => {
	await page.goto(`${app.baseURL}/request-qr/sent`)
	await expect(page).toHaveURL(`${app.baseURL}/request-qr`)
})
