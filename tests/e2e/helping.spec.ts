import { mailedInstanceForTheseTests } from './app-server.ts'
import { claimOnDashboard, expect, expectNoAxeViolations, test } from './fixtures.ts'

// An instance of its own whose mail goes to a real SMTP server on loopback: the alerts are read from there.
test.describe("I'm helping, with its mail delivered", () => {
	const instance = mailedInstanceForTheseTests()
	const url = (path: string) => instance().url(path)
	const mailTo = (address: string, subject: string) => instance().mailTo(address, subject, 60_000)

	test('the owner opts a contact in; a responder says "Taken to St. Mary\'s"; the owner and that contact are e-mailed within a minute', async ({
		page,
		browser,
		hasJs,
	}, testInfo) => {
		test.slow()
		const owner = instance().app.fixtures().users[0]!
		const code = instance().app.fixtures().codes[0]!
		const contactEmail = `sister-${testInfo.project.name}-${Date.now()}@e2e.example`
		await page.goto(url('/login'))
		await page.getByLabel('Email').fill(owner.email)
		await page.getByLabel('Password').fill(owner.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(url('/dashboard'))
		await page.getByLabel('First name').fill('Rosa')
		await page.getByLabel('Last name').fill('Helped')
		await page.getByRole('button', { name: 'Create Medical Profile' }).click()
		await expect(page.getByText('Medical profile created successfully')).toBeVisible()
		await claimOnDashboard(page, code.pin)

		await page.goto(url('/dashboard'))
		await page.getByRole('link', { name: 'Add Contact' }).click()
		const dialog = page.getByRole('dialog')
		await dialog.getByLabel('Name').fill('Ines Helped')
		await dialog.getByLabel('Relationship').fill('Sister')
		await dialog.getByLabel('Phone number').fill('555-0199')
		await dialog.getByLabel('E-mail this contact when a responder says they are helping').check()
		await dialog.getByRole('button', { name: 'Add Contact' }).click()
		await expect(dialog.getByText('Add an email address to alert this contact')).toBeVisible()
		await dialog.getByLabel('Email (optional)').fill(contactEmail)
		await dialog.getByRole('button', { name: 'Add Contact' }).click()
		await expect(page.getByText('Emergency contact added successfully')).toBeVisible()
		await expect(page.getByText('Alerted when a responder is helping')).toBeVisible()

		const settings = page.getByRole('region', { name: 'Reminders and Alerts' })
		await settings.getByLabel('Ask me to confirm this profile is still correct').selectOption('3')
		await settings.getByRole('button', { name: 'Save Settings' }).click()
		await expect(page.getByText('Saved: we will ask you to confirm every 3 months.')).toBeVisible()
		await expectNoAxeViolations(page, testInfo)

		const responder = await browser.newContext({
			javaScriptEnabled: hasJs,
			viewport: { width: 360, height: 740 },
			geolocation: { latitude: 40.7128, longitude: -74.006, accuracy: 20 },
			permissions: ['geolocation'],
		})
		try {
			const phone = await responder.newPage()
			await phone.goto(url(new URL(code.scanUrl).pathname))
			const form = phone.getByRole('region', { name: 'Helping this person now?' })
			await expect(form.getByRole('button', { name: 'Add my location' })).toHaveCount(hasJs ? 1 : 0)
			await expectNoAxeViolations(phone, testInfo)
			if (hasJs) {
				await form.getByRole('button', { name: 'Add my location' }).click()
				await expect(form.getByRole('status')).toHaveText('Your location will be sent (within 20 m).')
			}
			await form.getByLabel('Hospital they are being taken to').fill("St. Mary's")
			await form.getByRole('button', { name: 'I’m helping: alert their family' }).click()
			await expect(phone).toHaveURL(/\/helping\?lang=en$/)
			const sent = phone.getByRole('region', { name: 'Sent' })
			await expect(sent.getByText("Hospital: St. Mary's")).toBeVisible()
			await expect(
				sent.getByText(/^E-mailed at \d{1,2}:\d{2} [AP]M Eastern Time to the person’s account holder and 1 emergency contact\(s\)/),
			).toBeVisible()
			await expect(phone).toHaveTitle('Your alert to their family')
			await expectNoAxeViolations(phone, testInfo)

			await mailTo(owner.email, 'Someone is helping Rosa now').toContain("Taken to hospital: St. Mary's")
			if (hasJs) await mailTo(owner.email, 'Someone is helping Rosa now').toContain('openstreetmap.org/?mlat=40.71280&mlon=-74.00600')
			await mailTo(contactEmail, 'Someone is helping Rosa now').toContain("listed as Rosa Helped's emergency contact (Sister)")

			// A later message from the same responder, minutes after the first, waits to go to the same people as one update.
			await phone.getByRole('region', { name: 'Send an update' }).getByLabel('Where are you?').fill('In the ambulance')
			await phone.getByRole('button', { name: 'Send an update' }).click()
			await expect(phone.getByText('Where: In the ambulance')).toBeVisible()
			await expect(phone.getByText('Waiting: it goes to the same people within 5 minutes')).toBeVisible()

			// The owner reads both on the code's scan history, and blocks the sender: nothing more from them is taken.
			await page.goto(url('/dashboard/qr-codes'))
			await page.getByRole('link', { name: 'Scan history' }).first().click()
			const history = page.getByRole('region', { name: 'Scan history' })
			await expect(history.getByText('Where: In the ambulance')).toBeVisible()
			await expect(history.getByText('waiting to go with their next update')).toBeVisible()
			await expect(history.getByText(/e-mailed to 2 people/)).toBeVisible()
			// Each report is an emergency access in the list of scans, with the hospital the responder named.
			await expect(history.getByText("Emergency access: Yes · Medical facility: St. Mary's")).toBeVisible()
			await expectNoAxeViolations(page, testInfo)
			await history
				.getByRole('button', { name: /^Block the sender of the message at/ })
				.first()
				.click()
			await expect(page.getByText('Sender blocked: nothing more they send from this code reaches anyone.')).toBeVisible()
			await expect(
				page
					.getByRole('region', { name: 'Scan history' })
					.getByText(/sender blocked/)
					.first(),
			).toBeVisible()
			await phone.getByRole('region', { name: 'Send an update' }).getByLabel('Where are you?').fill('Prank')
			await phone.getByRole('button', { name: 'Send an update' }).click()
			await expect(phone.getByText('This person’s family has turned off messages from this device.')).toBeVisible()
		} finally {
			await responder.close()
		}

		// The owner turns the alerts off: the responder page no longer offers them.
		await page.goto(url('/dashboard'))
		await page.getByRole('region', { name: 'Reminders and Alerts' }).getByRole('checkbox').uncheck()
		await page.getByRole('button', { name: 'Save Settings' }).click()
		await expect(page.getByText('Responders cannot send alerts.')).toBeVisible()
		const later = await browser.newContext({ javaScriptEnabled: hasJs })
		try {
			const phone = await later.newPage()
			await phone.goto(url(new URL(code.scanUrl).pathname))
			await expect(phone.getByText('Rosa Helped')).toBeVisible()
			await expect(phone.getByRole('region', { name: 'Helping this person now?' })).toHaveCount(0)
		} finally {
			await later.close()
		}
	})
})
